import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { company } from '../../../common/content/company.ts';
import { PATHS } from '../../../common/paths.ts';
import { renderMail } from '../../mail/layout.ts';
import type { DbExecutor, MailInput } from '../../mail/mailer.ts';
import { messageNotifications } from '../../db/schema/messages.ts';

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
  subject: string;
}

/**
 * The mail telling a message's receiver that it is waiting: who wrote about which project, the
 * subject and a link to the dashboard. Never the text or the attachments: the conversation stays
 * behind the sign-in.
 */
export function messageNotificationMail(app: FastifyInstance, facts: NotificationFacts): MailInput {
  const link = new URL(facts.toStaff ? PATHS.adminDashboard : PATHS.clientDashboard, app.config.publicUrl).toString();
  const from = facts.toStaff ? facts.clientName : `The ${company.shortName} team`;
  const mail = renderMail({
    subject: `New message about ${facts.projectName}`,
    greeting: facts.toStaff ? 'Hello,' : `Hello ${facts.clientName},`,
    paragraphs: [`${from} sent a new message about the project "${facts.projectName}".`],
    fields: [['Subject', facts.subject || '(no subject)']],
    action: { label: 'Read it and reply on your dashboard', url: link },
    footer: [company.name, 'Further messages in this thread within 15 minutes are not mailed separately.'],
  });
  return { to: facts.toStaff ? app.config.STAFF_EMAIL : facts.clientEmail, ...mail, kind: MESSAGE_NOTIFICATION_KIND };
}

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
