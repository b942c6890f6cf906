import { and, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { forbidden, notFound } from '../../../common/errors.ts';
import type { Message, MessageEvent } from '../../../common/schemas/messages.ts';
import { messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { users, type UserRole } from '../../db/schema/users.ts';
import { notifySql } from '../../events/pg-events.ts';
import { MESSAGE_EVENTS_CHANNEL } from '../../events/portal-events.ts';
import { toMessage, type AttachmentTuple } from './message-rows.ts';
import { clientProjectCondition } from '../organisations/client-scope.ts';

// The thread's pages are read in message-thread.service.ts, a send is written in
// message-send.service.ts; this file holds a single message and the unread counts.

export interface Viewer {
  _id: string;
  role: UserRole;
  /** A client member's organisation (decision 279); a founder's is its own id. */
  organisationId?: string | null;
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
    })
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .leftJoin(receiver, eq(receiver.id, messages.receiverId))
    .innerJoin(projects, eq(projects.id, messages.projectId))
    .where(and(eq(messages.id, messageId), viewer.role === 'admin' ? undefined : clientProjectCondition(viewer)))
    .limit(1);
  if (!row) throw notFound('Message not found');
  return toMessage(row, row.project_id);
}

/**
 * Marks a message read. Only its receiver may: the client for staff messages, any admin for a
 * client's message to the company. The sender gets 403; another client 404.
 */
export async function markMessageRead(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<Message> {
  const message = await findMessage(app, viewer, messageId);
  const isReceiver = message.receiverId._id === null ? viewer.role === 'admin' : message.receiverId._id === (viewer.organisationId ?? viewer._id);
  if (!isReceiver) throw forbidden('Only the receiver can mark a message as read');
  if (message.isRead) return message;
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
 * What waits for this viewer: staff count what clients sent, a client member what staff sent to its
 * organisation in the projects it may see (the query joins projects; decision 279).
 */
export function unreadFor(viewer: Viewer): SQL {
  return viewer.role === 'admin'
    ? sql`${messages.receiverId} is null and not ${messages.isRead}`
    : sql`${messages.receiverId} = ${projects.clientId} and not ${messages.isRead} and ${clientProjectCondition(viewer)}`;
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
    .where(unreadFor(viewer))
    .groupBy(messages.projectId, projects.clientId)
    .orderBy(sql`min(${messages.createdAt})`, messages.projectId);
  const byProject = Object.fromEntries(rows.map((r) => [r.projectId, r.n]));
  const threads = rows.map((r) => ({ projectId: r.projectId, clientId: r.clientId, count: r.n }));
  return { total: rows.reduce((sum, r) => sum + r.n, 0), byProject, threads };
}
