import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects } from './projects.ts';
import { users } from './users.ts';
import { tsvector } from './search-vector.ts';

/** A progress report of a project (specification section 3). */
export const progressReports = pgTable(
  'progress_reports',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    projectCode: text('project_code').notNull().default(''),
    /** The project's name as written on the report. */
    project: text('project').notNull(),
    team: text('team').notNull(),
    tasks: text('tasks').notNull(),
    progress: text('progress').notNull(),
    challenges: text('challenges').notNull().default(''),
    actionTaken: text('action_taken').notNull().default(''),
    helpNeeded: text('help_needed').notNull().default(''),
    nextSteps: text('next_steps').notNull().default(''),
    feedback: text('feedback').notNull().default(''),
    conclusion: text('conclusion').notNull().default(''),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** 1 as written; each correction adds one and keeps the replaced text in report_versions. */
    version: integer('version').notNull().default(1),
    /** The last correction: when and by whom (null: never corrected). */
    correctedAt: timestamp('corrected_at', { withTimezone: true }),
    correctedBy: uuid('corrected_by').references(() => users.id, { onDelete: 'set null' }),
    /** Every text field, for full-text search in English; kept by the database (decision 250). */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english', project_code || ' ' || project || ' ' || team || ' ' || tasks || ' ' || progress || ' ' || challenges || ' ' || action_taken || ' ' || help_needed || ' ' || next_steps || ' ' || feedback || ' ' || conclusion)`,
    ),
  },
  (t) => [index('progress_reports_project_idx').on(t.projectId, t.date, t.createdAt), index('progress_reports_search_idx').using('gin', t.searchVector)],
);

/** An image of a report: the original and its thumbnail, stored under server-generated keys. */
export const reportImages = pgTable(
  'report_images',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    reportId: uuid('report_id')
      .notNull()
      .references(() => progressReports.id, { onDelete: 'cascade' }),
    /** Order in which the images were uploaded. */
    position: integer('position').notNull(),
    storageKey: text('storage_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    /** The type sniffed from the bytes, never the declared one. */
    mimeType: text('mime_type').notNull(),
    /** The uploader's file name, for display and Content-Disposition only. */
    originalName: text('original_name').notNull(),
    size: integer('size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
  },
  (t) => [index('report_images_report_idx').on(t.reportId, t.position)],
);

/**
 * A report's earlier version, kept when a correction replaced it (decision 242): its text as it
 * was, who wrote it and when, and the names of its images.
 */
export const reportVersions = pgTable(
  'report_versions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    reportId: uuid('report_id')
      .notNull()
      .references(() => progressReports.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    writtenBy: uuid('written_by').references(() => users.id, { onDelete: 'set null' }),
    writtenAt: timestamp('written_at', { withTimezone: true }).notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    projectCode: text('project_code').notNull(),
    project: text('project').notNull(),
    team: text('team').notNull(),
    tasks: text('tasks').notNull(),
    progress: text('progress').notNull(),
    challenges: text('challenges').notNull(),
    actionTaken: text('action_taken').notNull(),
    helpNeeded: text('help_needed').notNull(),
    nextSteps: text('next_steps').notNull(),
    feedback: text('feedback').notNull(),
    conclusion: text('conclusion').notNull(),
    imageNames: jsonb('image_names').$type<string[]>().notNull(),
  },
  // One row per version of a report: two corrections at once cannot both file the same version.
  (t) => [uniqueIndex('report_versions_report_version_unique').on(t.reportId, t.version)],
);
