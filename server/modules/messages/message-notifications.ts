import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../../common/paths.ts';
import { renderMail } from '../../mail/layout.ts';
import { refreshAtSendTime, type DbExecutor, type MailInput } from '../../mail/mailer.ts';
import { messageNotifications } from '../../db/schema/messages.ts';
import { publishedCompany } from '../site-content/published-company.ts';

const MESSAGE_NOTIFICATION_KIND = 'message-notification';
/** The throttle key of mails to the company (the staff inbox), beside clients' user ids. */
export const STAFF_RECIPIENT = 'staff';
/** A thread mails a recipient at most once in this time (the rest wait in the dashboard). */
export const NOTIFICATION_QUIET_MS = 15 * 60_000;

export interface NotificationFacts {
  toStaff: boolean;
  projectName: string;
  clientName: string;
  clientEmail: string;
  /** The person who wrote it: a staff member's or a client person's name (decision 281). */
  senderName: string;
  subject: string;
  /** The message announced: the mail is read again when it is sent (decision 260). */
  messageId?: string;
}

/**
 * The mail telling a message's receiver that it is waiting: who wrote about which project, the
 * subject and a link to the dashboard. Never the text or the attachments: the conversation stays
 * behind the sign-in.
 */
export function messageNotificationMail(app: FastifyInstance, facts: NotificationFacts): MailInput {
  const company = publishedCompany(app);
  const link = new URL(facts.toStaff ? PATHS.adminDashboard : PATHS.clientDashboard, app.config.publicUrl).toString();
  // The person who wrote, and for whom: once a client has several people its name alone says too little.
  const from = facts.toStaff
    ? facts.senderName === facts.clientName
      ? facts.clientName
      : `${facts.senderName} of ${facts.clientName}`
    : `${facts.senderName} of the ${company.shortName} team`;
  const mail = renderMail({
    subject: `New message about ${facts.projectName}`,
    greeting: facts.toStaff ? 'Hello,' : `Hello ${facts.clientName},`,
    paragraphs: [`${from} sent a new message about the project "${facts.projectName}".`],
    fields: [['Subject', facts.subject || '(no subject)']],
    action: { label: 'Read it and reply on your dashboard', url: link },
    footer: [company.name, 'Further messages in this thread within 15 minutes are not mailed separately.'],
  });
  return { to: facts.toStaff ? app.config.STAFF_EMAIL : facts.clientEmail, ...mail, kind: MESSAGE_NOTIFICATION_KIND, messageId: facts.messageId };
}

interface AnnouncedRow extends Record<string, unknown> {
  to_staff: boolean;
  project_name: string;
  client_name: string;
  client_email: string;
  sender_name: string;
  subject: string;
}

/**
 * At send time (a retry can come minutes later): a notification for a message removed since (or gone
 * with its project) is dropped; one for a message edited since carries its current subject. The
 * address stays the one it was queued for.
 */
refreshAtSendTime(MESSAGE_NOTIFICATION_KIND, async (app, row) => {
  const result = await app.db.execute<AnnouncedRow>(sql`
    select m.receiver_id is null as to_staff, p.name as project_name, u.name as client_name, u.email as client_email, s.name as sender_name, m.subject
    from messages m join projects p on p.id = m.project_id join users u on u.id = p.client_id join users s on s.id = m.sender_id
    where m.id = ${row.messageId} and m.deleted_at is null`);
  const found = result.rows[0];
  if (!found) return null;
  const mail = messageNotificationMail(app, {
    toStaff: found.to_staff,
    projectName: found.project_name,
    clientName: found.client_name,
    clientEmail: found.client_email,
    senderName: found.sender_name,
    subject: found.subject,
    messageId: row.messageId ?? undefined,
  });
  return { subject: mail.subject, text: mail.text, html: mail.html };
});

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
