import { sql } from 'drizzle-orm';
import { bigint, date, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { PROJECT_STATUSES } from '../../../common/schemas/projects.ts';
import { clientOrganisations, users } from './users.ts';

/** A client's project. The client is a user with role client. */
export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    // A client with projects is not deleted by accident: the projects must go first.
    clientId: uuid('client_id')
      .notNull()
      .references(() => clientOrganisations.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    /** Staff's short reference, unique regardless of letter case. */
    code: text('code').notNull(),
    description: text('description').notNull().default(''),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    /** The contract sum in kobo (decision 294): set at creation, corrected by staff, moved by approved change orders. */
    budgetKobo: bigint('budget_kobo', { mode: 'bigint' }).notNull().default(sql`0`),
    /** The contract sum before any change order: the budget at creation, or as staff last corrected it (decision 294). */
    originalBudgetKobo: bigint('original_budget_kobo', { mode: 'bigint' }).notNull().default(sql`0`),
    status: text('status', { enum: PROJECT_STATUSES }).notNull().default('not-started'),
    /** Set when staff archive a project: out of the default lists and read-only (decision 247). */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When anything last happened on the project (its row, its messages, its reports): the activity
     * order of the project list (decision 258). Kept by database triggers (migration 0021).
     */
    lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('projects_code_unique').on(sql`lower(${t.code})`),
    index('projects_client_idx').on(t.clientId, t.createdAt),
    // Search finds projects by any part of name or code (ILIKE '%term%', decision 250).
    index('projects_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('projects_code_trgm_idx').using('gin', t.code.op('gin_trgm_ops')),
    // A client's live or archived projects, newest first (decision 248).
    index('projects_client_list_idx').on(t.clientId, sql`(${t.archivedAt} is null)`, t.createdAt),
    // The same list by last activity, walked by keyset (decision 258).
    index('projects_client_activity_idx').on(t.clientId, sql`(${t.archivedAt} is null)`, t.lastActivityAt, t.id),
  ],
);

/**
 * Which project managers run which projects (decision 277): a project manager sees and changes only
 * the projects with a row here for them (projectScope). That the user is staff with the
 * project_manager role is checked when a row is written (a CHECK cannot look at another table).
 */
export const projectAssignments = pgTable(
  'project_assignments',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // The scope's EXISTS looks a pair up; a manager's list walks by user.
  (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index('project_assignments_user_idx').on(t.userId, t.projectId)],
);

/**
 * A client member limited to some of its organisation's projects (decision 279): with rows here the
 * member sees only those projects; with none, every project of the organisation.
 */
export const projectMemberLimits = pgTable(
  'project_member_limits',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.projectId] }), index('project_member_limits_project_idx').on(t.projectId)],
);
