import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tsvector } from './search-vector.ts';

/** A message from the public contact form; staff read it in the admin inbox. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    company: text('company').notNull().default(''),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Sender and message, for staff search (decision 250); kept by the database. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(
      sql`to_tsvector('english', name || ' ' || email || ' ' || company || ' ' || message)`,
    ),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt), index('contact_messages_search_idx').using('gin', t.searchVector), index('contact_messages_unread_idx').on(t.isRead, t.createdAt)],
);
