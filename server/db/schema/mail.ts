import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// 'dropped': not sent because its cause was gone at send time (a removed message, decision 260).
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'stored', 'dropped'] as const;

/** Every e-mail the product sends, with its delivery status; retried while pending. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** Extra headers (List-Unsubscribe and friends), sent again as they are on every retry. */
    headers: jsonb('headers').$type<Record<string, string>>(),
    replyTo: text('reply_to'),
    /** What the mail is about (invitation, password-reset, message-notification, ...), for finding it again. */
    kind: text('kind').notNull(),
    /** The message a notification is about: read again at send time, so a removed message is not announced. */
    messageId: uuid('message_id'),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.nextAttemptAt), index('mail_outbox_to_idx').on(t.to)],
);
