import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Fixed-window request counters of the rate limits (form submissions per address and so on), kept
 * in PostgreSQL so that several server processes share them.
 */
export const rateLimitCounters = pgTable(
  'rate_limit_counters',
  {
    /** What is counted and for whom, such as 'contact:203.0.113.7'. */
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** Secrets the server makes for itself on first use (signing keys), shared by every process. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
