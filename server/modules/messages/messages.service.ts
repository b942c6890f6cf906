import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import { company } from '../../../common/content/company.ts';
import { badRequest, forbidden, notFound } from '../../../common/errors.ts';
import { messageEventSchema, type AttachmentKind, type Message, type MessageEvent } from '../../../common/schemas/messages.ts';
import { mayHearOf, portalChangeSchema } from '../../../common/schemas/portal-events.ts';
import { messageFiles, messageNotifications, messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { sessions, users, type UserRole } from '../../db/schema/users.ts';
import { runNamed } from '../../db/named-statement.ts';
import { notifySql } from '../../events/pg-events.ts';
import { PORTAL_CHANGES_CHANNEL } from '../../events/portal-events.ts';
import { deliverQueuedMail, queueMail, type DbExecutor } from '../../mail/mailer.ts';
import * as schema from '../../db/schema/index.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { rateLimitWindow, type RateLimitRule } from '../../lib/rate-limit.ts';
import { toAttachment } from '../files/files.service.ts';
import { messageNotificationMail, STAFF_RECIPIENT } from './message-notifications.ts';

export interface Viewer {
  _id: string;
  role: UserRole;
}

/** The LISTEN/NOTIFY channel of message events. */
export const MESSAGE_EVENTS_CHANNEL = 'portal_messages';
/** A thread mails a recipient at most once in this time (the rest wait in the dashboard). */
const NOTIFICATION_QUIET_MS = 15 * 60_000;

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

// Threads are ordered by creation time, stored to the millisecond (what the API shows and cursors
// carry), then by id, so equal times neither skip nor repeat a message between pages. The index
// messages_project_created_id_idx (project_id, created_at, id) serves this order and the cursor
// as they are: a page costs the same at 100 messages and at 20,000 (decision 150).
//
// One statement answers a page: the project (visible to the viewer, else no row at all), the
// newest `limit` messages before the cursor with their people, and each message's files as one
// small JSON array (the per-message index on message_files). Named statements: PostgreSQL plans
// each once per connection (decision 151).
const threadPageSql = (withCursor: boolean, forClient: boolean) => `
select m.id, m.subject, m.text, m.is_read, m.read_at, m.created_at, m.sender_id, s.name as sender_name, s.role as sender_role,
  m.receiver_id, r.name as receiver_name,
  (select coalesce(json_agg(json_build_array(f.id, f.name, f.mime_type, f.kind, f.size) order by f.position), '[]'::json)
     from message_files f where f.message_id = m.id) as files
from projects p
left join lateral (
  select * from messages m
  where m.project_id = p.id${withCursor ? ' and (m.created_at, m.id) < ($3, $4)' : ''}
  order by m.created_at desc, m.id desc
  limit $2
) m on true
left join users s on s.id = m.sender_id
left join users r on r.id = m.receiver_id
where p.id = $1${forClient ? ` and p.client_id = $${withCursor ? 5 : 3}` : ''}
order by m.created_at desc, m.id desc`;

export const THREAD_PAGE_STATEMENTS = {
  staff: { text: threadPageSql(false, false), name: 'thread-page-staff' },
  staffBefore: { text: threadPageSql(true, false), name: 'thread-page-staff-before' },
  client: { text: threadPageSql(false, true), name: 'thread-page-client' },
  clientBefore: { text: threadPageSql(true, true), name: 'thread-page-client-before' },
};

// What waits for the viewer, older than a position: staff count what clients sent, a client what staff sent to it.
const OLDER_UNREAD_STATEMENTS = {
  staff: {
    name: 'thread-older-unread-staff',
    text: `select count(*)::int as n from messages where project_id = $1 and receiver_id is null and not is_read and (created_at, id) < ($2, $3)`,
  },
  client: {
    name: 'thread-older-unread-client',
    text: `select count(*)::int as n from messages where project_id = $1 and receiver_id = $4 and not is_read and (created_at, id) < ($2, $3)`,
  },
};

interface ThreadPageRow {
  id: string | null;
  subject: string;
  text: string;
  is_read: boolean;
  read_at: Date | null;
  created_at: Date;
  sender_id: string;
  sender_name: string;
  sender_role: UserRole;
  receiver_id: string | null;
  receiver_name: string | null;
  files: [string, string, string, AttachmentKind, number][];
}

function threadMessage(r: ThreadPageRow & { id: string }, projectId: string): Message {
  return {
    _id: r.id,
    subject: r.subject,
    text: r.text,
    senderId: { _id: r.sender_id, name: r.sender_name },
    // A client writes to the company as a whole: any admin may read and answer.
    receiverId: r.receiver_id ? { _id: r.receiver_id, name: r.receiver_name ?? '' } : { _id: null, name: company.name },
    projectId,
    fromStaff: r.sender_role === 'admin',
    isRead: r.is_read,
    readAt: r.read_at ? r.read_at.toISOString() : null,
    createdAt: r.created_at.toISOString(),
    attachments: r.files.map(([id, name, mimeType, kind, size]) => toAttachment({ id, name, mimeType, kind, size })),
  };
}

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
  const { before, limit } = page;
  const forClient = viewer.role !== 'admin';
  const statement = forClient
    ? before
      ? THREAD_PAGE_STATEMENTS.clientBefore
      : THREAD_PAGE_STATEMENTS.client
    : before
      ? THREAD_PAGE_STATEMENTS.staffBefore
      : THREAD_PAGE_STATEMENTS.staff;
  // One more than asked tells whether an older page exists.
  const values: unknown[] = [projectId, limit + 1];
  if (before) values.push(before.createdAt, before.id);
  if (forClient) values.push(viewer._id);
  const { rows } = await runNamed<ThreadPageRow>(app.pool, statement, values);
  // No row: no such project, or another client's (the same answer, so ids cannot be probed).
  if (rows.length === 0) throw notFound('Project not found');
  const found = rows[0].id === null ? [] : (rows as (ThreadPageRow & { id: string })[]);
  const hasMore = found.length > limit;
  const shown: Message[] = new Array(Math.min(found.length, limit));
  for (let i = 0; i < shown.length; i++) shown[shown.length - 1 - i] = threadMessage(found[i], projectId);
  const oldest = shown.length ? found[shown.length - 1] : undefined;
  return { messages: shown, hasMore, olderUnread: hasMore && oldest ? await countUnreadBefore(app, viewer, projectId, oldest) : 0 };
}

/** Unread messages for the viewer in a thread, older than the given position. */
async function countUnreadBefore(app: FastifyInstance, viewer: Viewer, projectId: string, oldest: { id: string; created_at: Date }): Promise<number> {
  const forClient = viewer.role !== 'admin';
  const values: unknown[] = [projectId, oldest.created_at, oldest.id];
  if (forClient) values.push(viewer._id);
  const { rows } = await runNamed<{ n: number }>(app.pool, forClient ? OLDER_UNREAD_STATEMENTS.client : OLDER_UNREAD_STATEMENTS.staff, values);
  return rows[0].n;
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

/** The outcome of a send: the message, or which rule refused it (429) and when to try again. */
export type SendOutcome = { message: Message } | { refused: { retryAfterMs: number } };

// A send is one statement in one transaction (decision 152): both rate-limit windows counted
// (the hour only when the minute allows it, decision 063), the project checked for the viewer, the
// attachments locked and checked, the message inserted only when all of that holds, its files
// claimed in the sender's order, the receiver's mail throttle claimed (decision 062) and the live
// event published; the answer is built from what the statement returned. The counts are committed
// with the message, or alone when the send is refused: each INSERT ... ON CONFLICT DO UPDATE
// RETURNING count holds its row until the commit, so parallel sends of one sender count in turn
// and exactly `limit` pass (decision 110).
const sendSql = (toStaff: boolean) => `
with minute as (
  insert into rate_limit_counters as c (key, window_start, count, expires_at) values ($1, $2, 1, $3)
  on conflict (key, window_start) do update set count = c.count + 1
  returning c.count
), hour as (
  insert into rate_limit_counters as c (key, window_start, count, expires_at)
  select $4, $5, 1, $6 from minute where minute.count <= $7
  on conflict (key, window_start) do update set count = c.count + 1
  returning c.count
), project as (
  select p.id, p.name, p.client_id, u.name as client_name, u.email as client_email
  from projects p join users u on u.id = p.client_id
  where p.id = $9${toStaff ? ' and p.client_id = $10' : ''}
), files as (
  select f.id from message_files f
  where f.id = any($15::uuid[]) and f.uploader_id = $10 and f.message_id is null
  for update
), msg as (
  insert into messages (project_id, sender_id, receiver_id, subject, text, created_at)
  select project.id, $10, ${toStaff ? 'null::uuid' : 'project.client_id'}, $11, $12, $13
  from project, hour
  where hour.count <= $8 and (select count(*) from files) = cardinality($15::uuid[])
  returning id, project_id, receiver_id, subject, text, is_read, read_at, created_at
), claimed_files as (
  update message_files f set message_id = msg.id, position = array_position($15::uuid[], f.id)
  from msg where f.id in (select id from files)
  returning f.id, f.name, f.mime_type, f.kind, f.size, f.position
), notification as (
  insert into message_notifications as n (project_id, recipient, last_sent_at)
  select msg.project_id, ${toStaff ? `'${STAFF_RECIPIENT}'` : 'project.client_id::text'}, $13 from msg, project
  on conflict (project_id, recipient) do update set last_sent_at = excluded.last_sent_at
  where n.last_sent_at <= $14
  returning 1
)
select (select count from minute) as minute_count, (select count from hour) as hour_count,
  project.id as project_id, project.name as project_name, project.client_id, project.client_name, project.client_email,
  (select count(*)::int from files) as files_found,
  msg.id, msg.subject, msg.text, msg.is_read, msg.read_at, msg.created_at, msg.receiver_id,
  (select coalesce(json_agg(json_build_array(cf.id, cf.name, cf.mime_type, cf.kind, cf.size) order by cf.position), '[]'::json)
     from claimed_files cf) as files,
  exists (select 1 from notification) as mail_due,
  case when msg.id is null then null
    else pg_notify($16, json_build_object('type', 'message.created', 'projectId', msg.project_id, 'clientId', project.client_id, 'messageId', msg.id)::text)
  end as notified
from (select 1) as one
left join project on true
left join msg on true`;

const SEND_STATEMENTS = {
  fromClient: { name: 'message-send-from-client', text: sendSql(true) },
  fromStaff: { name: 'message-send-from-staff', text: sendSql(false) },
};

interface SendRow {
  minute_count: number;
  hour_count: number | null;
  project_id: string | null;
  project_name: string;
  client_id: string;
  client_name: string;
  client_email: string;
  files_found: number;
  id: string | null;
  subject: string;
  text: string;
  is_read: boolean;
  read_at: Date | null;
  created_at: Date;
  receiver_id: string | null;
  files: [string, string, string, AttachmentKind, number][];
  mail_due: boolean;
}

/**
 * Sends a message in a project's thread, counting it against the sender's limits (a minute rule,
 * then an hour rule). Sender and receiver come from the session and the project, never from the
 * request: a client always writes to the company, staff to the project's client. Attachments must
 * be the sender's own uploads not yet sent. The live event and the receiver's mail (at most one per
 * thread per quiet period) are written in the same transaction, so both exist exactly when the
 * message does; the mail is delivered after the commit, handed to `later`.
 */
export async function sendMessage(
  app: FastifyInstance,
  later: AfterAnswer,
  viewer: Viewer & { name: string },
  input: NewMessage,
  limits: readonly [RateLimitRule, RateLimitRule],
): Promise<SendOutcome> {
  const attachmentIds = [...new Set(input.attachments)];
  const toStaff = viewer.role !== 'admin';
  const now = app.clock.now();
  const nowMs = now.getTime();
  const [minuteRule, hourRule] = limits;
  const minute = rateLimitWindow(minuteRule, viewer._id, nowMs);
  const hour = rateLimitWindow(hourRule, viewer._id, nowMs);
  const values = [
    minute.key,
    new Date(minute.windowStart),
    new Date(minute.windowEnd),
    hour.key,
    new Date(hour.windowStart),
    new Date(hour.windowEnd),
    minuteRule.limit,
    hourRule.limit,
    input.projectId,
    viewer._id,
    input.subject,
    input.text,
    now,
    new Date(nowMs - NOTIFICATION_QUIET_MS),
    attachmentIds,
    MESSAGE_EVENTS_CHANNEL,
  ];
  const client = await app.pool.connect();
  let row: SendRow;
  let mailId: string | null = null;
  try {
    await client.query('begin');
    row = (await client.query<SendRow>({ ...(toStaff ? SEND_STATEMENTS.fromClient : SEND_STATEMENTS.fromStaff), values })).rows[0];
    if (row.id && row.mail_due) {
      const mail = messageNotificationMail(app, {
        toStaff,
        projectName: row.project_name,
        clientName: row.client_name,
        clientEmail: row.client_email,
        subject: input.subject,
      });
      mailId = await queueMail(drizzle(client, { schema }), app, mail);
    }
    // Committed whatever the outcome: a refused or failed send still counts, as it always has (decision 063).
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    client.release(err as Error);
    throw err;
  }
  client.release();
  if (row.minute_count > minuteRule.limit) return { refused: { retryAfterMs: minute.windowEnd - nowMs } };
  if (row.hour_count === null || row.hour_count > hourRule.limit) return { refused: { retryAfterMs: hour.windowEnd - nowMs } };
  if (!row.project_id) throw notFound('Project not found');
  // Someone else's upload, an attachment already sent, or an unknown id: the whole message is refused.
  if (!row.id) throw badRequest('An attachment cannot be used: upload it again');
  const message: Message = {
    _id: row.id,
    subject: row.subject,
    text: row.text,
    senderId: { _id: viewer._id, name: viewer.name },
    receiverId: row.receiver_id ? { _id: row.receiver_id, name: row.client_name } : { _id: null, name: company.name },
    projectId: row.project_id,
    fromStaff: !toStaff,
    isRead: row.is_read,
    readAt: row.read_at ? row.read_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    attachments: row.files.map(([id, name, mimeType, kind, size]) => toAttachment({ id, name, mimeType, kind, size })),
  };
  if (mailId) later(deliverQueuedMail(app, [mailId]), 'message notification failed');
  return { message };
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

/**
 * Listens for the live events this viewer may hear: new messages and read receipts of its own
 * projects (staff: of all), and changes to projects, timelines, reports and clients exactly when the
 * viewer may read them. `hear` gets the event's name and data; the answer stops listening.
 */
export function listenForViewer(app: FastifyInstance, viewer: Viewer, hear: (event: 'resync' | 'message' | 'change', data: unknown) => void): () => void {
  const unsubscribeMessages = app.events.subscribe(MESSAGE_EVENTS_CHANNEL, (event) => {
    if (event.kind === 'resync') return hear('resync', {});
    const parsed = messageEventSchema.safeParse(event.payload);
    // A client hears only about its own projects; staff about all.
    if (!parsed.success || (viewer.role !== 'admin' && parsed.data.clientId !== viewer._id)) return;
    hear('message', parsed.data);
  });
  const unsubscribeChanges = app.events.subscribe(PORTAL_CHANGES_CHANNEL, (event) => {
    // A reconnect tells every channel; the messages channel has already sent the one resync.
    if (event.kind === 'resync') return;
    const parsed = portalChangeSchema.safeParse(event.payload);
    if (!parsed.success || !mayHearOf(viewer, parsed.data)) return;
    hear('change', parsed.data);
  });
  return () => {
    unsubscribeMessages();
    unsubscribeChanges();
  };
}
