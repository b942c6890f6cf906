import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { ATTACHMENT_KINDS } from '../../../common/schemas/messages.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';
import { tsvector } from './search-vector.ts';

/** A message of a project's thread between its client and the company's staff. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    // The thread is a record of what was said: its authors are not deleted while it exists.
    senderId: uuid('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** The client a staff message goes to; null for a client's message to the company (any admin reads it). */
    receiverId: uuid('receiver_id').references(() => users.id, { onDelete: 'restrict' }),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    readById: uuid('read_by_id').references(() => users.id, { onDelete: 'set null' }),
    // Stored to the millisecond (precision 3): the precision the thread is ordered by and its cursor
    // carries, so the index below serves the order and the cursor as they are (decision 150).
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    /** When its author last corrected it (within the edit window, decision 244); null if never. */
    editedAt: timestamp('edited_at', { withTimezone: true, precision: 3 }),
    /** When its author removed it: the row stays as 'This message was removed', its text and files go (decision 244). */
    deletedAt: timestamp('deleted_at', { withTimezone: true, precision: 3 }),
    /** Subject and text for full-text search in English (stems: 'paving' finds 'paved'); kept by the database. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('english', coalesce(subject, '') || ' ' || coalesce(text, ''))`),
  },
  (t) => [
    // A thread page: the newest messages of a project before a (created_at, id) position.
    index('messages_project_created_id_idx').on(t.projectId, t.createdAt, t.id),
    // The admin dashboard counts, per client, what clients sent that staff have not read.
    index('messages_unread_from_clients_idx').on(t.senderId).where(sql`${t.receiverId} is null and not ${t.isRead}`),
    // What staff sent to a client, for that client's people's unread counts (decision 281): their
    // reads are rows of message_reads, so the index holds every live staff message, not only unread
    // ones; with the id in it the count is an index-only scan joined to message_reads' key.
    index('messages_to_receiver_idx').on(t.receiverId, t.projectId, t.createdAt, t.id).where(sql`${t.receiverId} is not null and ${t.deletedAt} is null`),
    index('messages_search_idx').using('gin', t.searchVector),
    // Newest first across every thread: lets staff search stop at the first matches of a common word.
    index('messages_created_idx').on(t.createdAt, t.id),
  ],
);

/**
 * Which person of the client has read which staff message, and when (decision 281): unread counts
 * and 'Mark as read' are per person on the client's side. Staff keep the shared flag on the message
 * (one company inbox); the flag on a staff message says that at least one person of the client read it.
 */
export const messageReads = pgTable(
  'message_reads',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  // The key answers "has this person read this message" (the unread anti-join, the receipts); the
  // index lets deleting a person find their rows.
  (t) => [primaryKey({ columns: [t.messageId, t.userId] }), index('message_reads_user_idx').on(t.userId)],
);

/**
 * A file uploaded for a message. It belongs to its uploader until it is sent with a message, then
 * to that message (and so to whoever may see the message). Stored under a server-generated key.
 */
export const messageFiles = pgTable(
  'message_files',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    uploaderId: uuid('uploader_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    /** Order of the attachment in its message. */
    position: integer('position').notNull().default(0),
    storageKey: text('storage_key').notNull().unique('message_files_storage_key_unique'),
    /** The uploader's file name, sanitised: shown and used in Content-Disposition only. */
    name: text('name').notNull(),
    /** The allowed type the bytes were found to be, never only the declared one. */
    mimeType: text('mime_type').notNull(),
    kind: text('kind', { enum: ATTACHMENT_KINDS }).notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('message_files_message_idx').on(t.messageId, t.position),
    index('message_files_unsent_idx').on(t.uploaderId, t.createdAt).where(sql`${t.messageId} is null`),
  ],
);

/**
 * When a thread last mailed a recipient about a new message: at most one mail per thread and
 * recipient per quiet period. Recipient is a client's user id, or 'staff' for the company.
 */
export const messageNotifications = pgTable(
  'message_notifications',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.recipient] })],
);

/**
 * What an edited message said before each correction (decision 259): one row per edit, written in
 * the edit's transaction. Removing the message (its author, or a delete with everything) removes
 * them with it, as its attachments go: a removed text is not kept anywhere.
 */
export const messageVersions = pgTable(
  'message_versions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    /** When this text was written: the message's sending, or the edit before this one. */
    writtenAt: timestamp('written_at', { withTimezone: true, precision: 3 }).notNull(),
    /** When the next edit replaced it. */
    replacedAt: timestamp('replaced_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('message_versions_message_idx').on(t.messageId, t.replacedAt)],
);
