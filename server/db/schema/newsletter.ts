import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NEWSLETTER_STATUSES } from '../../../common/schemas/newsletter.ts';
import { users } from './users.ts';

/** One address on the newsletter list, with its double opt-in state. */
export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    email: text('email').notNull(),
    status: text('status', { enum: NEWSLETTER_STATUSES }).notNull().default('pending'),
    /** SHA-256 of the latest confirmation link's token; the token itself only travels in the mail. */
    confirmTokenHash: text('confirm_token_hash'),
    confirmTokenExpiresAt: timestamp('confirm_token_expires_at', { withTimezone: true }),
    /**
     * The unsubscribe link's token, kept as is because every newsletter mail must carry it. It only
     * lets someone take this one address off the list.
     */
    unsubscribeToken: text('unsubscribe_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
    /** When we last mailed this address because someone typed it in the box (limits mail bombing). */
    lastRequestMailAt: timestamp('last_request_mail_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('newsletter_subscribers_confirm_unique').on(t.confirmTokenHash),
    uniqueIndex('newsletter_subscribers_unsubscribe_unique').on(t.unsubscribeToken),
    index('newsletter_subscribers_status_idx').on(t.status, t.createdAt),
  ],
);

/**
 * One newsletter staff sent to the confirmed subscribers. The row and all its outbox mails are
 * written in one transaction, so an issue never exists with only part of its mails queued.
 */
export const newsletterIssues = pgTable(
  'newsletter_issues',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    /** Null once the staff member's account is deleted; the issue stays in the history. */
    sentById: uuid('sent_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The sender's name when it was sent, so the history still says who after the account is gone. */
    sentByName: text('sent_by_name').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    recipientCount: integer('recipient_count').notNull(),
    /** The key the composer sends with 'Send': a second request with it (double click, retry) sends nothing. */
    idempotencyKey: uuid('idempotency_key').notNull(),
  },
  (t) => [uniqueIndex('newsletter_issues_idempotency_unique').on(t.idempotencyKey), index('newsletter_issues_sent_at_idx').on(t.sentAt)],
);
