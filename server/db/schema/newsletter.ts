import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NEWSLETTER_STATUSES } from '../../../common/schemas/newsletter.ts';

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
