import '../zod-setup.ts';
import { z } from 'zod';
import { storableText } from './text.ts';
import { okResponse } from './ok-response.ts';

/** Shortest and longest search term: one letter finds half the database, a page of text is no search. */
export const SEARCH_QUERY_MIN = 2;
export const SEARCH_QUERY_MAX = 100;
/** Hits per kind: a few by default (the header's list), up to this many on request. */
const SEARCH_LIMIT_DEFAULT = 5;
const SEARCH_LIMIT_MAX = 20;

export const searchQuerySchema = z.object({
  q: storableText()
    .trim()
    .min(SEARCH_QUERY_MIN, `Type at least ${SEARCH_QUERY_MIN} characters to search`)
    .max(SEARCH_QUERY_MAX, `Search for at most ${SEARCH_QUERY_MAX} characters`),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(SEARCH_LIMIT_DEFAULT),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** What staff search, in the order the results show them. */
export const ADMIN_SEARCH_KINDS = ['clients', 'projects', 'reports', 'messages', 'vendorApplications', 'contactMessages'] as const;
/** What a client searches: its own projects, their reports and their messages. */
export const CLIENT_SEARCH_KINDS = ['projects', 'reports', 'messages'] as const;
export type SearchKind = (typeof ADMIN_SEARCH_KINDS)[number];

export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  clients: 'Clients',
  projects: 'Projects',
  reports: 'Progress reports',
  messages: 'Messages',
  vendorApplications: 'Vendor applications',
  contactMessages: 'Contact messages',
};

const searchHitSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** One line under the title: the client, a date, or the words around the match. */
  detail: z.string(),
  /** The screen and item it opens. */
  href: z.string(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

const searchGroupSchema = z.object({
  kind: z.enum(ADMIN_SEARCH_KINDS),
  label: z.string(),
  hits: z.array(searchHitSchema),
  /** More than `limit` matched: the group shows the first ones. */
  more: z.boolean(),
});
export type SearchGroup = z.infer<typeof searchGroupSchema>;

export const searchResponseSchema = okResponse({
  query: z.string(),
  /** Only kinds with at least one hit, in the order of the kinds. */
  groups: z.array(searchGroupSchema),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;
