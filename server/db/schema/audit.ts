import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Who did what (issue 23): one row per change staff or clients made, written in the change's own
 * transaction. Append-only: the application has no update or delete path, and a trigger (migration
 * 0020) refuses both. Actor and project are plain ids, not foreign keys, so deleting a user or a
 * project keeps its history.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** Null for the system (command line, scheduled work). */
    actorId: uuid('actor_id'),
    /** Who it was when it happened ('admin: Ada Obi'), kept as written so renames do not rewrite history. */
    actorLabel: text('actor_label').notNull(),
    address: text('address'),
    action: text('action').notNull(),
    entityKind: text('entity_kind').notNull(),
    entityId: text('entity_id').notNull(),
    projectId: uuid('project_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_events_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_events_actor_idx').on(t.actorId, t.at.desc()),
    index('audit_events_project_idx').on(t.projectId, t.at.desc()),
  ],
);
