import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { NewsArticle } from '../../../common/schemas/articles.ts';

/**
 * The last good answer of the news service (one row per query, today only 'everything'), shared by
 * every server process: normalised and sanitised articles, when they expire, and when the service
 * may next be asked after a failure. A failed refresh keeps the articles and only records the error.
 */
export const newsCache = pgTable('news_cache', {
  key: text('key').primaryKey(),
  articles: jsonb('articles').$type<NewsArticle[]>().notNull(),
  /** When the articles were fetched (null until the first success). */
  fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  /** After this time the articles are refreshed (they are still served until a refresh succeeds). */
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** Not before this time is the service asked again (a back-off after a failure). */
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  /** The last failure, for the logs and operators (never shown to visitors). */
  lastError: text('last_error'),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
});
