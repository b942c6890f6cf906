import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import { company } from '../../../common/content/company.ts';
import { badRequest, forbidden, notFound } from '../../../common/errors.ts';
import type { Message, MessageEvent } from '../../../common/schemas/messages.ts';
import { messageFiles, messageNotifications, messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { sessions, users, type UserRole } from '../../db/schema/users.ts';
import { notifySql } from '../../events/pg-events.ts';
import { queueMail, type DbExecutor } from '../../mail/mailer.ts';
import { toAttachment } from '../files/files.service.ts';
import { messageNotificationMail, STAFF_RECIPIENT } from './message-notifications.ts';

export interface Viewer {
  _id: string;
  role: UserRole;
}

/** The LISTEN/NOTIFY channel of message events. */
export const MESSAGE_EVENTS_CHANNEL = 'portal_messages';
/** A thread mails a recipient at most once in this time (the rest wait in the dashboard). */
export const NOTIFICATION_QUIET_MS = 15 * 60_000;

export interface ThreadProject {
  id: string;
  name: string;
  clientId: string;
  clientName: string;
  clientEmail: string;
}

/** The project if the viewer may see its thread; another client's project is "not found", like a missing one. */
export async function findThreadProject(app: FastifyInstance, viewer: Viewer, projectId: string): Promise<ThreadProject> {
  const [row] = await app.db
    .select({ id: projects.id, name: projects.name, clientId: projects.clientId, clientName: users.name, clientEmail: users.email })
    .from(projects)
    .innerJoin(users, eq(users.id, projects.clientId))
    .where(and(eq(projects.id, projectId), viewer.role === 'admin' ? undefined : eq(projects.clientId, viewer._id)))
    .limit(1);
  if (!row) throw notFound('Project not found');
  return row;
}

const sender = alias(users, 'sender');
const receiver = alias(users, 'receiver');

const messageColumns = {
  id: messages.id,
  projectId: messages.projectId,
  subject: messages.subject,
  text: messages.text,
  isRead: messages.isRead,
  readAt: messages.readAt,
  createdAt: messages.createdAt,
  senderId: messages.senderId,
  senderName: sender.name,
  senderRole: sender.role,
  receiverId: messages.receiverId,
  receiverName: receiver.name,
  clientId: projects.clientId,
};

type MessageRow = {
  id: string;
  projectId: string;
  subject: string;
  text: string;
  isRead: boolean;
  readAt: Date | null;
  createdAt: Date;
  senderId: string;
  senderName: string;
  senderRole: UserRole;
  receiverId: string | null;
  receiverName: string | null;
  clientId: string;
};

function selectMessages(app: FastifyInstance) {
  return app.db
    .select(messageColumns)
    .from(messages)
    .innerJoin(sender, eq(sender.id, messages.senderId))
    .leftJoin(receiver, eq(receiver.id, messages.receiverId))
    .innerJoin(projects, eq(projects.id, messages.projectId));
}

/** Attaches each message's files, in the order they were sent. */
async function withAttachments(app: FastifyInstance, rows: MessageRow[]): Promise<Message[]> {
  const ids = rows.map((r) => r.id);
  const files = ids.length
    ? await app.db
        .select()
        .from(messageFiles)
        .where(inArray(messageFiles.messageId, ids))
        .orderBy(asc(messageFiles.messageId), asc(messageFiles.position))
    : [];
  const byMessage = new Map<string, typeof files>();
  for (const f of files) {
    const list = byMessage.get(f.messageId!) ?? [];
    list.push(f);
    byMessage.set(f.messageId!, list);
  }
  return rows.map((r) => ({
    _id: r.id,
    subject: r.subject,
    text: r.text,
    senderId: { _id: r.senderId, name: r.senderName },
    // A client writes to the company as a whole: any admin may read and answer.
    receiverId: r.receiverId ? { _id: r.receiverId, name: r.receiverName ?? '' } : { _id: null, name: company.name },
    projectId: r.projectId,
    fromStaff: r.senderRole === 'admin',
    isRead: r.isRead,
    readAt: r.readAt ? r.readAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    attachments: (byMessage.get(r.id) ?? []).map(toAttachment),
  }));
}

/** A position in a thread (see threadCursor in common/schemas/messages.ts). */
export interface ThreadCursor {
  createdAt: Date;
  id: string;
}

// Threads are ordered by creation time to the millisecond (what the API shows and cursors carry),
// then by id: rows written outside the app may hold microseconds, which a cursor could not express,
// and equal times must neither skip nor repeat a message between pages.
const threadTime = sql`date_trunc('milliseconds', ${messages.createdAt})`;

/**
 * One page of a project's thread, oldest first: the newest `limit` messages, or those just before
 * the `before` position, with names and attachments. `hasMore` says whether older ones exist.
 */
export async function listProjectMessages(
  app: FastifyInstance,
  viewer: Viewer,
  projectId: string,
  page: { before?: ThreadCursor; limit: number },
): Promise<{ messages: Message[]; hasMore: boolean; olderUnread: number }> {
  await findThreadProject(app, viewer, projectId);
  const { before, limit } = page;
  const rows = await selectMessages(app)
    .where(
      and(
        eq(messages.projectId, projectId),
        before ? sql`(${threadTime}, ${messages.id}) < (${before.createdAt.toISOString()}::timestamptz, ${before.id}::uuid)` : undefined,
      ),
    )
    .orderBy(desc(threadTime), desc(messages.id))
    // One more than asked tells whether an older page exists.
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  const shown = rows.slice(0, limit).reverse();
  return { messages: await withAttachments(app, shown), hasMore, olderUnread: hasMore ? await countUnreadBefore(app, viewer, projectId, shown[0]) : 0 };
}

/** Unread messages for the viewer in a thread, older than the given position. */
async function countUnreadBefore(app: FastifyInstance, viewer: Viewer, projectId: string, oldest: { id: string; createdAt: Date }): Promise<number> {
  const [row] = await app.db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .where(
      and(
        eq(messages.projectId, projectId),
        unreadFor(viewer),
        sql`(${threadTime}, ${messages.id}) < (date_trunc('milliseconds', ${oldest.createdAt.toISOString()}::timestamptz), ${oldest.id}::uuid)`,
      ),
    );
  return row.n;
}

async function findMessage(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<Message> {
  const [row] = await selectMessages(app)
    .where(and(eq(messages.id, messageId), viewer.role === 'admin' ? undefined : eq(projects.clientId, viewer._id)))
    .limit(1);
  if (!row) throw notFound('Message not found');
  return (await withAttachments(app, [row]))[0];
}

export interface NewMessage {
  subject: string;
  text: string;
  projectId: string;
  attachments: string[];
}

/**
 * Sends a message in a project's thread. Sender and receiver come from the session and the
 * project, never from the request: a client always writes to the company, staff to the project's
 * client. Attachments must be the sender's own uploads not yet sent. The live event and the
 * receiver's mail (at most one per thread per quiet period) are written in the same transaction,
 * so both exist exactly when the message does; the caller delivers the mail after the commit.
 */
export async function sendMessage(
  app: FastifyInstance,
  viewer: Viewer,
  input: NewMessage,
): Promise<{ message: Message; mailId: string | null }> {
  const project = await findThreadProject(app, viewer, input.projectId);
  const attachmentIds = [...new Set(input.attachments)];
  const toStaff = viewer.role !== 'admin';
  const receiverId = toStaff ? null : project.clientId;
  const now = app.clock.now();
  const { id, mailId } = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(messages)
      .values({ projectId: project.id, senderId: viewer._id, receiverId, subject: input.subject, text: input.text, createdAt: now })
      .returning({ id: messages.id });
    if (attachmentIds.length > 0) {
      const claimed = await tx
        .update(messageFiles)
        .set({
          messageId: row.id,
          // The order the sender listed them in (ids are validated uuids, passed as one array parameter).
          position: sql`array_position(${`{${attachmentIds.join(',')}}`}::uuid[], ${messageFiles.id})`,
        })
        .where(and(inArray(messageFiles.id, attachmentIds), eq(messageFiles.uploaderId, viewer._id), isNull(messageFiles.messageId)))
        .returning({ id: messageFiles.id });
      // Someone else's upload, an attachment already sent, or an unknown id: the whole message is refused.
      if (claimed.length !== attachmentIds.length) throw badRequest('An attachment cannot be used: upload it again');
    }
    const event: MessageEvent = { type: 'message.created', projectId: project.id, clientId: project.clientId, messageId: row.id };
    await tx.execute(notifySql(MESSAGE_EVENTS_CHANNEL, event));
    let queued: string | null = null;
    if (await claimNotification(tx, now, project.id, toStaff ? STAFF_RECIPIENT : project.clientId)) {
      const mail = messageNotificationMail(app, {
        toStaff,
        projectName: project.name,
        clientName: project.clientName,
        clientEmail: project.clientEmail,
        subject: input.subject,
      });
      queued = await queueMail(tx, app, mail);
    }
    return { id: row.id, mailId: queued };
  });
  return { message: await findMessage(app, viewer, id), mailId };
}

/**
 * Marks a message read. Only its receiver may: the client for staff messages, any admin for a
 * client's message to the company. The sender gets 403; another client 404.
 */
export async function markMessageRead(app: FastifyInstance, viewer: Viewer, messageId: string): Promise<Message> {
  const message = await findMessage(app, viewer, messageId);
  const isReceiver = message.receiverId._id === null ? viewer.role === 'admin' : message.receiverId._id === viewer._id;
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

/** What waits for this viewer: staff count what clients sent, a client what staff sent to it. */
function unreadFor(viewer: Viewer): SQL {
  return viewer.role === 'admin'
    ? sql`${messages.receiverId} is null and not ${messages.isRead}`
    : sql`${messages.receiverId} = ${viewer._id} and not ${messages.isRead}`;
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

/**
 * The unread count of one client for the staff's client list, as a correlated subquery over the
 * outer query's `users` row (so the list stays one query): what the client sent that no admin read.
 */
export const clientUnreadCountSql = (): SQL<number> =>
  sql<number>`(select count(*) from ${messages} where ${messages}.${sql.identifier(messages.senderId.name)} = ${users}.${sql.identifier(users.id.name)} and ${messages}.${sql.identifier(messages.receiverId.name)} is null and not ${messages}.${sql.identifier(messages.isRead.name)})`.mapWith(
    Number,
  );

/**
 * Claims the right to mail a recipient about a thread: true at most once per quiet period, even
 * with several processes sending at the same moment (one upsert decides, under the row's lock).
 */
export async function claimNotification(db: DbExecutor, now: Date, projectId: string, recipient: string): Promise<boolean> {
  const quietSince = new Date(now.getTime() - NOTIFICATION_QUIET_MS);
  const rows = await db
    .insert(messageNotifications)
    .values({ projectId, recipient, lastSentAt: now })
    .onConflictDoUpdate({
      target: [messageNotifications.projectId, messageNotifications.recipient],
      set: { lastSentAt: now },
      setWhere: sql`${messageNotifications.lastSentAt} <= ${quietSince.toISOString()}`,
    })
    .returning({ projectId: messageNotifications.projectId });
  return rows.length > 0;
}

/** Whether a live stream's session is still good (checked without counting as activity). */
export async function streamSessionValid(app: FastifyInstance, sessionId: string, role: UserRole): Promise<boolean> {
  const [row] = await app.db
    .select({ expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row || row.revokedAt) return false;
  const now = app.clock.now().getTime();
  const idleMinutes = role === 'admin' ? app.config.ADMIN_SESSION_IDLE_MINUTES : app.config.CLIENT_SESSION_IDLE_MINUTES;
  return row.expiresAt.getTime() > now && row.lastSeenAt.getTime() + idleMinutes * 60_000 > now;
}
