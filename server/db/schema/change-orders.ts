import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { CHANGE_ORDER_STATUSES } from '../../../common/schemas/change-orders.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * A change order of a project (issue 25, decision 294): staff draft it, send it, the client's
 * approver approves or declines it. Approval moves the project's budget and end date in the same
 * transaction and records both sides of the move here; a decided change order never changes.
 */
export const changeOrders = pgTable(
  'change_orders',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** 1, 2, ... within the project (shown CO-001), given at drafting under the project's row lock. */
    number: integer('number').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** Cost impact in kobo; negative reduces the contract sum. */
    costKobo: bigint('cost_kobo', { mode: 'bigint' }).notNull(),
    /** Schedule impact in days; negative brings the end date forward. */
    scheduleDays: integer('schedule_days').notNull(),
    status: text('status', { enum: CHANGE_ORDER_STATUSES }).notNull().default('draft'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    /** The decider's name when deciding: the record reads the same after the account goes. */
    decidedByName: text('decided_by_name'),
    decidedFromIp: text('decided_from_ip'),
    decisionComment: text('decision_comment'),
    /** On approval: the project's sum and end date before and after this change. */
    budgetBeforeKobo: bigint('budget_before_kobo', { mode: 'bigint' }),
    budgetAfterKobo: bigint('budget_after_kobo', { mode: 'bigint' }),
    endDateBefore: date('end_date_before', { mode: 'string' }),
    endDateAfter: date('end_date_after', { mode: 'string' }),
  },
  (t) => [
    uniqueIndex('change_orders_project_number_unique').on(t.projectId, t.number),
    index('change_orders_project_idx').on(t.projectId, t.status),
    check('change_orders_decided_has_time', sql`(${t.status} in ('approved', 'declined')) = (${t.decidedAt} is not null)`),
    check('change_orders_approved_records_move', sql`${t.status} <> 'approved' or ${t.budgetAfterKobo} is not null`),
  ],
);

/**
 * A file attached to a change order while it is a draft (decision 296): its bytes live in the file
 * storage under `storage_key`, checked by kind and size as they streamed in, with their SHA-256.
 * Frozen once the change order is sent; deleted with a draft (the row cascades, the file is removed
 * after the commit).
 */
export const changeOrderAttachments = pgTable(
  'change_order_attachments',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    changeOrderId: uuid('change_order_id')
      .notNull()
      .references(() => changeOrders.id, { onDelete: 'cascade' }),
    /** The uploader's file name, for display and Content-Disposition only. */
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull().unique('change_order_attachments_storage_key_unique'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('change_order_attachments_change_order_idx').on(t.changeOrderId, t.createdAt),
    check('change_order_attachments_size_range', sql`${t.sizeBytes} > 0 and ${t.sizeBytes} <= 26214400`),
    check('change_order_attachments_sha256_hex', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
