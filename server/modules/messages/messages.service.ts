import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../../../common/errors.ts';
import type { Message, MessageEvent } from '../../../common/schemas/messages.ts';
import { messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { notifySql } from '../../events/pg-events.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { MESSAGE_EVENTS_CHANNEL } from '../../events/portal-events.ts';
import { readersSql, toMessage, type AttachmentTuple, type ReaderTuple } from './message-rows.ts';
import { publishedCompany } from '../site-content/published-company.ts';

// The thread's pages are read in message-thread.service.ts, a send is written in
// message-send.service.ts; this file holds a single message and the unread counts.

/**
 * Who is asking; which projects' messages they may see is projectScope's to say (decisions 277,
 * 279). A client person's organisation is what projects.client_id and a staff message's receiver
 * hold (a founder's is its own id).
 */
export type Viewer = ScopeViewer;

/** The client a client person belongs to (see Viewer.organisationId). */
export function organisationOf(viewer: Viewer): string {
  return viewer.organisationId ?? viewer._id;
}

const sender = alias(users, 'sender');
const receiver = alias(users, 'receiver');

/** One message with its people and its files (in the order they were sent), as message-rows.ts maps it. */
export async function findMessage(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<Message> {
  const [row] = await app.db
    .select({
      id: messages.id,
      project_id: messages.projectId,
      subject: messages.subject,
      text: messages.text,
      is_read: messages.isRead,
      read_at: messages.readAt,
      created_at: messages.createdAt,
      edited_at: messages.editedAt,
      deleted_at: messages.deletedAt,
      sender_id: messages.senderId,
      sender_name: sender.name,
      sender_role: sender.role,
      receiver_id: messages.receiverId,
      receiver_name: receiver.name,
      files: sql<AttachmentTuple[]>`(select coalesce(json_agg(json_build_array(f.id, f.name, f.mime_type, f.kind, f.size) order by f.position), '[]'::json)
        from message_files f where f.message_id = ${messages.id})`,
      readers: sql<ReaderTuple[]>`${sql.raw(readersSql('"messages"."id"'))}`,
    })
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .leftJoin(receiver, eq(receiver.id, messages.receiverId))
    .innerJoin(projects, eq(projects.id, messages.projectId))
    .where(and(eq(messages.id, messageId), projectScope(viewer)))
    .limit(1);
  if (!row) throw notFound('Message not found');
  return toMessage(publishedCompany(app), row, row.project_id, viewer);
}

/**
 * Marks a message read. Only its receiver may: a person of the client for staff messages (their
 * own read, decision 281), any admin for a client's message to the company (the shared flag). The
 * sender gets 403; another client 404.
 */
export async function markMessageRead(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<Message> {
  const message = await findMessage(app, viewer, messageId);
  const isReceiver = message.receiverId._id === null ? viewer.role === 'admin' : viewer.role !== 'admin' && message.receiverId._id === organisationOf(viewer);
  if (!isReceiver) throw forbidden('Only the receiver can mark a message as read');
  if (message.isRead) return message;
  if (viewer.role !== 'admin') {
    await app.db.transaction((tx) => recordClientReads(app, tx, viewer, sql`${messages.id} = ${messageId}`, 'message.read', { projectId: message.projectId, messageId }));
    return findMessage(app, viewer, messageId);
  }
  await app.db.transaction(async (tx) => {
    // Only the first reader publishes the receipt; a second click finds nothing left to change.
    const [row] = await tx
      .update(messages)
      .set({ isRead: true, readAt: app.clock.now(), readById: viewer._id })
      .from(projects)
      .where(and(eq(messages.id, messageId), eq(messages.isRead, false), eq(projects.id, messages.projectId)))
      .returning({ clientId: projects.clientId });
    if (!row) return;
    const event: MessageEvent = { type: 'message.read', projectId: message.projectId, clientId: row.clientId, messageId };
    await tx.execute(notifySql(MESSAGE_EVENTS_CHANNEL, event));
  });
  return findMessage(app, viewer, messageId);
}

/**
 * A client person reads the staff messages `which` selects that still wait for them: one
 * message_reads row each (a row already there is left as it was), and the message's shared flag
 * (the staff's 'Read' receipt) set by the first person of the client to read it. One live event
 * names the reader, so their other tabs update and a colleague's count does not clear. How many
 * were marked.
 */
export async function recordClientReads(
  app: FastifyInstance,
  tx: DbExecutor,
  viewer: Viewer,
  which: SQL,
  type: 'message.read' | 'thread.read',
  about: { projectId: string; messageId: string | null },
): Promise<number> {
  const now = app.clock.now().toISOString();
  const result = await tx.execute<{ message_id: string }>(sql`
    with marked as (
      insert into message_reads (message_id, user_id, read_at)
      select ${messages.id}, ${viewer._id}, ${now} from ${messages} where ${which} and ${unreadFor(viewer)}
      on conflict do nothing
      returning message_id
    ), flagged as (
      update messages f set is_read = true, read_at = ${now}, read_by_id = ${viewer._id}
      from marked where f.id = marked.message_id and not f.is_read
      returning f.id
    )
    select message_id from marked`);
  if (result.rows.length === 0) return 0;
  const event: MessageEvent = { type, projectId: about.projectId, clientId: organisationOf(viewer), messageId: about.messageId, readerId: viewer._id };
  await tx.execute(notifySql(MESSAGE_EVENTS_CHANNEL, event));
  return result.rows.length;
}

/**
 * What waits for this viewer: staff count what clients sent and no one of the staff has read (the
 * shared flag), a client person what staff sent to their client that they have not read themselves.
 * The partial index messages_to_receiver_idx finds a client's staff messages, the key of
 * message_reads answers each "read by me" (decision 281).
 */
export function unreadFor(viewer: Viewer): SQL {
  return viewer.role === 'admin'
    ? sql`${messages.receiverId} is null and not ${messages.isRead}`
    : sql`${messages.receiverId} = ${organisationOf(viewer)} and ${messages.deletedAt} is null
      and not exists (select 1 from message_reads r where r.message_id = ${messages.id} and r.user_id = ${viewer._id})`;
}

/** Unread messages for the viewer, in total and per project (one query), the thread waiting longest first. */
export async function unreadCounts(
  app: FastifyInstance,
  viewer: Viewer,
): Promise<{ total: number; byProject: Record<string, number>; threads: { projectId: string; clientId: string; count: number }[] }> {
  const rows = await app.db
    .select({ projectId: messages.projectId, clientId: projects.clientId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .innerJoin(projects, eq(projects.id, messages.projectId))
    .where(and(unreadFor(viewer), projectScope(viewer)))
    .groupBy(messages.projectId, projects.clientId)
    .orderBy(sql`min(${messages.createdAt})`, messages.projectId);
  const byProject = Object.fromEntries(rows.map((r) => [r.projectId, r.n]));
  const threads = rows.map((r) => ({ projectId: r.projectId, clientId: r.clientId, count: r.n }));
  return { total: rows.reduce((sum, r) => sum + r.n, 0), byProject, threads };
}
