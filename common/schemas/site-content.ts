import '../zod-setup.ts';
import { z } from 'zod';
import { SECTION_KEYS } from '../content/sections.ts';
import { okResponse } from './ok-response.ts';

// The website content API (issue 24, decision 283). Documents travel as plain JSON: each is checked
// against its section's schema (common/content/sections.ts) by the service, which names the fields.

export const sectionParamsSchema = z.object({ section: z.enum(SECTION_KEYS as [string, ...string[]]) });
export const revisionParamsSchema = sectionParamsSchema.extend({ id: z.uuid() });

const version = z.number().int().positive();
const document = z.record(z.string(), z.unknown());

/** An autosave: the document, and the draft version it was edited from. */
export const saveDraftBodySchema = z.object({ version, document });
/** Publish or restore: the draft version the person was looking at, so they act on what they saw. */
export const versionBodySchema = z.object({ version });
export const scheduleBodySchema = z.object({ version, publishAt: z.iso.datetime({ offset: true }) });

const draftSchema = z.object({ version, savedAt: z.string(), savedBy: z.string(), document });
const publishedSchema = z.object({ revisionId: z.string(), publishedAt: z.string(), publishedBy: z.string(), document });
const scheduleSchema = z.object({ id: z.string(), publishAt: z.string(), createdBy: z.string() });

const sectionSummarySchema = z.object({
  section: z.string(),
  title: z.string(),
  /** The draft is not what visitors see. */
  changed: z.boolean(),
  draftSavedAt: z.string(),
  draftSavedBy: z.string(),
  publishedAt: z.string(),
  publishedBy: z.string(),
  scheduledAt: z.string().nullable(),
});
export type SectionSummary = z.infer<typeof sectionSummarySchema>;

export const sectionListResponseSchema = okResponse({ sections: z.array(sectionSummarySchema) });
export const sectionResponseSchema = okResponse({
  section: z.string(),
  title: z.string(),
  draft: draftSchema,
  published: publishedSchema,
  schedule: scheduleSchema.nullable(),
});
export type SectionDetail = z.infer<typeof sectionResponseSchema>;
export const draftResponseSchema = okResponse({ draft: draftSchema });
export const scheduleResponseSchema = okResponse({ schedule: scheduleSchema });

const revisionSummarySchema = z.object({
  id: z.string(),
  number: z.number().int(),
  publishedAt: z.string(),
  publishedBy: z.string(),
  source: z.enum(['seed', 'publish', 'schedule']),
});
export type RevisionSummary = z.infer<typeof revisionSummarySchema>;
export const revisionListResponseSchema = okResponse({ revisions: z.array(revisionSummarySchema) });
export const publishResponseSchema = okResponse({ revision: revisionSummarySchema });
/** A revision and the one before it (null for the first): the history shows them side by side. */
export const revisionResponseSchema = okResponse({
  revision: revisionSummarySchema.extend({ document }),
  previous: revisionSummarySchema.extend({ document }).nullable(),
});
export type RevisionDetail = z.infer<typeof revisionResponseSchema>;
