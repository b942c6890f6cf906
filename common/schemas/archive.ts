import '../zod-setup.ts';
import { z } from 'zod';
import { storableText } from './text.ts';
import { paginationQuerySchema } from './pagination.ts';

// Archive, delete and the list filters of clients and projects (issue 22, decisions 247-249).

/** DELETE /users/clients/{id} and /projects/{id}: the name staff typed, needed only when the record has history. */
export const deleteBodySchema = z
  .object({ confirmName: storableText().max(300).optional() })
  .nullish()
  .transform((v) => v ?? {});

/** What a deletion removed, so the screen can say how many. */
const deleteOutcomeSchema = z.object({
  name: z.string(),
  projects: z.number().int(),
  reports: z.number().int(),
  messages: z.number().int(),
  /** Stored files (attachments, report images and thumbnails) removed with the rows. */
  files: z.number().int(),
});
export type DeleteOutcome = z.infer<typeof deleteOutcomeSchema>;
export const deleteResponseSchema = z.object({ success: z.literal(true), deleted: deleteOutcomeSchema });
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

/** The orders a list can take; `activity` is the newest report, message or change first. */
export const LIST_SORTS = ['date', 'name', 'activity'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/**
 * A list's query: the page, a status filter (a status of the kind, `archived`, or `all`; absent:
 * everything not archived, as the specification's list answered) and an order (absent: newest first).
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(statuses: S) {
  return paginationQuerySchema.extend({
    status: z.enum([...statuses, 'archived', 'all'] as [S[number] | 'archived' | 'all', ...(S[number] | 'archived' | 'all')[]]).optional(),
    sort: z.enum(LIST_SORTS).optional(),
  });
}
