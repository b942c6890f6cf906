import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { StoredTimelineTask } from '../../../common/schemas/timelines.ts';
import { projects } from './projects.ts';

/**
 * A timeline (gantt) record of a project. Its tasks are edited and read as one list, so they live
 * in one jsonb column validated by the API schema (see docs/decisions/052-timeline-tasks-as-jsonb.md).
 */
export const ganttCharts = pgTable(
  'gantt_charts',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    projectTitle: text('project_title').notNull(),
    tasks: jsonb('tasks').$type<StoredTimelineTask[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gantt_charts_project_idx').on(t.projectId, t.createdAt)],
);
