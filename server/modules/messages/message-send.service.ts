import { recordAuditOnClient, type AuditContext } from '../audit/audit.ts';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict, notFound } from '../../../common/errors.ts';
import type { Message } from '../../../common/schemas/messages.ts';
import { deliverQueuedMail, queueMailOnClient } from '../../mail/mailer.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { rateLimitWindow, type RateLimitRule } from '../../lib/rate-limit.ts';
import { messageNotificationMail, NOTIFICATION_QUIET_MS, STAFF_RECIPIENT } from './message-notifications.ts';
import { toMessage, type MessageRow } from './message-rows.ts';
import { MESSAGE_EVENTS_CHANNEL } from '../../events/portal-events.ts';
import type { Viewer } from './messages.service.ts';
import { projectScopeText } from '../projects/project-scope.ts';
import { PROJECT_ARCHIVED } from '../projects/project-locks.ts';
import { publishedCompany } from '../site-content/published-company.ts';

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
const sendSql = (toStaff: boolean, scope: string) => `
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
  select p.id, p.name, p.client_id, u.name as client_name, u.email as client_email,
    (p.archived_at is not null or u.archived_at is not null) as archived
  from projects p join users u on u.id = p.client_id
  where p.id = $9 and ${scope}
  for key share of p, u
), files as (
  select f.id from message_files f
  where f.id = any($15::uuid[]) and f.uploader_id = $10 and f.message_id is null
  for update
), msg as (
  insert into messages (project_id, sender_id, receiver_id, subject, text, created_at)
  select project.id, $10, ${toStaff ? 'null::uuid' : 'project.client_id'}, $11, $12, $13
  from project, hour
  where hour.count <= $8 and not project.archived and (select count(*) from files) = cardinality($15::uuid[])
  returning id, project_id, receiver_id, subject, text, is_read, read_at, created_at, edited_at, deleted_at
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
  project.id as project_id, project.archived as project_archived, project.name as project_name, project.client_id, project.client_name, project.client_email,
  (select count(*)::int from files) as files_found,
  msg.id, msg.subject, msg.text, msg.is_read, msg.read_at, msg.created_at, msg.edited_at, msg.deleted_at, msg.receiver_id,
  (select coalesce(json_agg(json_build_array(cf.id, cf.name, cf.mime_type, cf.kind, cf.size) order by cf.position), '[]'::json)
     from claimed_files cf) as files,
  exists (select 1 from notification) as mail_due,
  case when msg.id is null then null
    else pg_notify($16, json_build_object('type', 'message.created', 'projectId', msg.project_id, 'clientId', project.client_id, 'messageId', msg.id)::text)
  end as notified
from (select 1) as one
left join project on true
left join msg on true`;

/** The send's statement for this viewer: the project limited by projectScope (decision 277; $10 is the sender). */
function sendStatement(viewer: Viewer, toStaff: boolean): { name: string; text: string } {
  const scope = projectScopeText(viewer, 'p', 10);
  return { name: `message-send-from-${toStaff ? 'client' : 'staff'}-${scope.key}`, text: sendSql(toStaff, scope.text) };
}

/** What the send statement returns: the counts, the project, and the message when it was stored. */
type SendRow = Omit<MessageRow, 'id' | 'sender_id' | 'sender_name' | 'sender_role' | 'receiver_name' | 'readers'> & {
  minute_count: number;
  hour_count: number | null;
  project_id: string | null;
  project_archived: boolean | null;
  project_name: string;
  client_id: string;
  client_name: string;
  client_email: string;
  files_found: number;
  id: string | null;
  mail_due: boolean;
};

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
  who: AuditContext,
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
    row = (await client.query<SendRow>({ ...sendStatement(viewer, toStaff), values })).rows[0];
    if (row.id && row.mail_due) {
      const mail = messageNotificationMail(app, {
        toStaff,
        projectName: row.project_name,
        clientName: row.client_name,
        clientEmail: row.client_email,
        senderName: viewer.name,
        subject: input.subject,
        messageId: row.id,
      });
      mailId = await queueMailOnClient(client, app, mail);
    }
    if (row.id) await recordAuditOnClient(client, app.db, who, { action: 'message.send', entityId: row.id, projectId: row.project_id, after: { subject: input.subject, text: input.text, attachments: attachmentIds.length } });
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
  // Archived (or its client archived): read-only, nothing stored (decision 247).
  if (row.project_archived) throw conflict(PROJECT_ARCHIVED);
  // Someone else's upload, an attachment already sent, or an unknown id: the whole message is refused.
  if (!row.id) throw badRequest('An attachment cannot be used: upload it again');
  // The sender is the viewer; the receiver, when there is one, the project's client.
  const stored = { ...row, id: row.id, sender_id: viewer._id, sender_name: viewer.name, sender_role: viewer.role, receiver_name: row.client_name, readers: [] };
  const message: Message = toMessage(publishedCompany(app), stored, row.project_id, viewer);
  if (mailId) later(deliverQueuedMail(app, [mailId]), 'message notification failed');
  return { message };
}
