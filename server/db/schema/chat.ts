import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { contactMessages } from './contact.ts';

/**
 * A support-chat conversation (issue 11). Kept 30 days by the retention job. The visitor's address is
 * never stored: `visitorHash` is a keyed hash of it (lets staff see that conversations came from one
 * visitor without knowing who), and the rate-limit counters hold it only for their window.
 */
export const chatConversations = pgTable(
  'chat_conversations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    visitorHash: text('visitor_hash').notNull(),
    turns: integer('turns').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    handedOffAt: timestamp('handed_off_at', { withTimezone: true }),
    contactMessageId: uuid('contact_message_id').references(() => contactMessages.id, { onDelete: 'set null' }),
  },
  (t) => [index('chat_conversations_last_idx').on(t.lastAt)],
);

/** One question and the answer it got. */
export const chatTurns = pgTable(
  'chat_turns',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => chatConversations.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** answered | unknown | refused | empty | failed */
    outcome: text('outcome').notNull(),
    /** ai | offline | none (refused before any engine) */
    mode: text('mode').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('chat_turns_conversation_idx').on(t.conversationId, t.createdAt), index('chat_turns_outcome_idx').on(t.outcome, t.createdAt)],
);
