import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { documentVersions } from './documents.ts';
import { projects } from './projects.ts';
import { ganttCharts } from './timelines.ts';
import { progressReports } from './reports.ts';
import { users } from './users.ts';

export const APPROVAL_SUBJECT_TYPES = ['report', 'milestone', 'document'] as const;
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'withdrawn'] as const;

/**
 * A request that the client approve one subject (decision 293): a progress report, a completed
 * milestone (one task of a timeline record) or a document version. The subject is fixed when asked
 * (its version and the SHA-256 of its canonical bytes); the decision records who, when, from where
 * and the hash it saw. At most one open or approved request per subject (subject_key).
 */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    subjectType: text('subject_type', { enum: APPROVAL_SUBJECT_TYPES }).notNull(),
    /** 'report:<id>', 'milestone:<timeline id>:<task index>', 'document-version:<id>'. */
    subjectKey: text('subject_key').notNull(),
    reportId: uuid('report_id').references(() => progressReports.id, { onDelete: 'cascade' }),
    timelineId: uuid('timeline_id').references(() => ganttCharts.id, { onDelete: 'cascade' }),
    taskIndex: integer('task_index'),
    /** A document version (decision 292): versions never change; a new one needs a new request. */
    documentVersionId: uuid('document_version_id').references(() => documentVersions.id, { onDelete: 'cascade' }),
    /** What the client is asked to approve, in words, as it was when asked. */
    subjectTitle: text('subject_title').notNull(),
    /** The subject's version when asked ('Version 3', 'Revision B'). */
    subjectVersion: text('subject_version').notNull(),
    /** SHA-256 (hex) of the subject's canonical bytes when asked. */
    subjectSha256: text('subject_sha256').notNull(),
    note: text('note').notNull().default(''),
    dueOn: date('due_on', { mode: 'string' }).notNull(),
    status: text('status', { enum: APPROVAL_STATUSES }).notNull().default('pending'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    requestedByName: text('requested_by_name').notNull(),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedAddress: text('decided_address'),
    decisionComment: text('decision_comment'),
    /** SHA-256 of the subject's bytes at the decision (equal to subject_sha256: a changed subject cannot be decided). */
    decidedSha256: text('decided_sha256'),
    /** Staff closed a rejected request or withdrew a pending one: nothing waits on anybody. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: uuid('closed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('approval_requests_project_idx').on(t.projectId, t.requestedAt),
    index('approval_requests_open_idx').on(t.status, t.dueOn),
    // One live request per subject: a second ask while one is open, or of an approved subject, is refused.
    uniqueIndex('approval_requests_live_subject_unique').on(t.subjectKey).where(sql`${t.status} in ('pending', 'approved')`),
    check(
      'approval_requests_subject_check',
      sql`(${t.subjectType} = 'report' and ${t.reportId} is not null) or (${t.subjectType} = 'milestone' and ${t.timelineId} is not null and ${t.taskIndex} is not null) or (${t.subjectType} = 'document' and ${t.documentVersionId} is not null)`,
    ),
    check(
      'approval_requests_decision_check',
      sql`(${t.status} in ('approved', 'rejected')) = (${t.decidedAt} is not null and ${t.decidedSha256} is not null)`,
    ),
  ],
);

/** One reminder e-mail per person per day (decision 293): the unique key is the claim. */
export const approvalReminders = pgTable(
  'approval_reminders',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentOn: date('sent_on', { mode: 'string' }).notNull(),
    /** The requests the mail named. */
    requestIds: uuid('request_ids').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('approval_reminders_person_day_unique').on(t.userId, t.sentOn)],
);
