import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { DOCUMENT_CATEGORIES, DOCUMENT_FILE_KINDS } from '../../../common/schemas/documents.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A document of a project's register (decision 292): its title, category and whether the client
 * sees it. Its bytes live in its versions; the current one is the highest-numbered, so there is no
 * pointer to break (and no cycle of foreign keys for the backup to order).
 */
export const projectDocuments = pgTable(
  'project_documents',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    category: text('category', { enum: DOCUMENT_CATEGORIES }).notNull(),
    visibleToClient: boolean('visible_to_client').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('project_documents_project_idx').on(t.projectId, t.category, t.title),
    check('project_documents_title_present', sql`length(btrim(${t.title})) > 0`),
    check('project_documents_category_known', sql`${t.category} in (${sql.raw(DOCUMENT_CATEGORIES.map((c) => `'${c}'`).join(', '))})`),
  ],
);

/**
 * One upload of a document: numbered 1, 2, ... per document (unique), with its label ("Rev A" or
 * "Version 2"), the bytes' size, kind (sniffed, never declared) and SHA-256, who uploaded it and when.
 * A version is never changed or replaced; a newer one (a higher number) supersedes it.
 */
export const documentVersions = pgTable(
  'document_versions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    documentId: uuid('document_id')
      .notNull()
      .references(() => projectDocuments.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    label: text('label').notNull(),
    storageKey: text('storage_key').notNull().unique('document_versions_storage_key_unique'),
    /** The uploader's file name, for display and Content-Disposition only. */
    fileName: text('file_name').notNull(),
    kind: text('kind', { enum: DOCUMENT_FILE_KINDS }).notNull(),
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('document_versions_document_number_unique').on(t.documentId, t.number),
    check('document_versions_number_positive', sql`${t.number} > 0`),
    check('document_versions_size_range', sql`${t.size} > 0 and ${t.size} <= 104857600`),
    check('document_versions_sha256_hex', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
    check('document_versions_label_present', sql`length(btrim(${t.label})) > 0`),
  ],
);
