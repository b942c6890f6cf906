import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// The website's content (issue 24, decision 283): one document per section (common/content/sections.ts).
// Each section has one draft, one published document, every published document as a revision, and
// at most one pending schedule. Who acted is kept as a label as well as an id, so deleting a staff
// account keeps the history readable (as the audit log does).

/** What staff are editing: the section's working copy, and the version that guards against overwrites. */
export const siteContentDrafts = pgTable('site_content_drafts', {
  section: text('section').primaryKey(),
  document: jsonb('document').notNull(),
  /** One more on every save; a save naming an older version is refused (409). */
  version: integer('version').notNull().default(1),
  savedAt: timestamp('saved_at', { withTimezone: true }).notNull().defaultNow(),
  savedBy: uuid('saved_by'),
  savedByLabel: text('saved_by_label').notNull(),
});

/** What visitors see: the section's live document and the revision it came from. */
export const siteContentPublished = pgTable('site_content_published', {
  section: text('section').primaryKey(),
  document: jsonb('document').notNull(),
  revisionId: uuid('revision_id').notNull(),
  publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  publishedByLabel: text('published_by_label').notNull(),
});

/** Every document that was ever published (the starting one too), numbered per section. Append-only. */
export const siteContentRevisions = pgTable(
  'site_content_revisions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    section: text('section').notNull(),
    number: integer('number').notNull(),
    document: jsonb('document').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    publishedBy: uuid('published_by'),
    publishedByLabel: text('published_by_label').notNull(),
    /** 'seed' (the starting content), 'publish' (by hand) or 'schedule' (at its time). */
    source: text('source').notNull(),
  },
  (t) => [
    uniqueIndex('site_content_revisions_section_number_idx').on(t.section, t.number),
    check('site_content_revisions_source_check', sql`${t.source} in ('seed', 'publish', 'schedule')`),
  ],
);

/** A publish at a chosen time, of the draft as it was when scheduled. Done once, by whichever process claims it. */
export const siteContentSchedules = pgTable(
  'site_content_schedules',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    section: text('section').notNull(),
    document: jsonb('document').notNull(),
    publishAt: timestamp('publish_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by'),
    createdByLabel: text('created_by_label').notNull(),
    /** 'pending' until its time, then 'done'; 'cancelled' when replaced or withdrawn. */
    status: text('status').notNull().default('pending'),
    revisionId: uuid('revision_id'),
  },
  (t) => [
    // One pending schedule per section: scheduling again replaces it.
    uniqueIndex('site_content_schedules_pending_idx').on(t.section).where(sql`${t.status} = 'pending'`),
    index('site_content_schedules_due_idx').on(t.publishAt).where(sql`${t.status} = 'pending'`),
    check('site_content_schedules_status_check', sql`${t.status} in ('pending', 'done', 'cancelled')`),
  ],
);
