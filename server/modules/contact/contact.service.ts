import { and, count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../../common/paths.ts';
import {
  CONTACT_INBOX_PAGE_SIZE,
  type ContactMessage,
  type ContactMessageFields,
} from '../../../common/schemas/contact.ts';
import { contactMessages } from '../../db/schema/contact.ts';
import { renderMail } from '../../mail/layout.ts';
import { deliverQueuedMail, queueMail, type MailInput } from '../../mail/mailer.ts';
import { publishedCompany } from '../site-content/published-company.ts';

type Row = typeof contactMessages.$inferSelect;
const toApi = (r: Row): ContactMessage => ({
  _id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  company: r.company,
  message: r.message,
  isRead: r.isRead,
  createdAt: r.createdAt.toISOString(),
});

/** The mail telling staff about a contact message (from the contact form or the support chat's hand-off). */
export function contactStaffMail(app: FastifyInstance, fields: ContactMessageFields, source = 'contact form'): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `New contact message from ${fields.name}${fields.company ? ` (${fields.company})` : ''}`,
    paragraphs: [`A visitor wrote through the ${source} of the ${company.shortName} website. Reply to this mail to answer them.`],
    fields: [
      ['Name', fields.name],
      ['Email', fields.email],
      ['Phone', fields.phone],
      ['Company', fields.company],
      ['Message', fields.message],
    ],
    action: { label: 'Open the inbox', url: `${app.config.publicUrl}${PATHS.adminContactMessages}` },
  });
  return { ...mail, to: app.config.STAFF_EMAIL, kind: 'contact-message-staff', replyTo: fields.email };
}

/**
 * Stores a contact message and, in the same transaction, the mail that tells staff (and, when given,
 * an acknowledgement to the visitor, as the support chat's hand-off sends); then sends them.
 */
export async function createContactMessage(
  app: FastifyInstance,
  fields: ContactMessageFields,
  ip: string | null,
  options: { source?: string; acknowledgement?: MailInput } = {},
): Promise<{ id: string }> {
  const now = app.clock.now();
  const { id, mailIds } = await app.db.transaction(async (tx) => {
    const [row] = await tx.insert(contactMessages).values({ ...fields, ip, createdAt: now }).returning({ id: contactMessages.id });
    const mailIds = [await queueMail(tx, app, contactStaffMail(app, fields, options.source))];
    if (options.acknowledgement) mailIds.push(await queueMail(tx, app, options.acknowledgement));
    return { id: row.id, mailIds };
  });
  try {
    await deliverQueuedMail(app, mailIds);
  } catch (err) {
    app.log.error({ err }, 'could not deliver the contact notification now');
  }
  return { id };
}

/** Staff's inbox: newest first; all, unread or read. */
export async function listContactMessages(
  app: FastifyInstance,
  query: { filter: 'all' | 'unread' | 'read'; page: number },
): Promise<{ messages: ContactMessage[]; total: number; unread: number }> {
  const where = query.filter === 'all' ? undefined : eq(contactMessages.isRead, query.filter === 'read');
  const rows = await app.db
    .select()
    .from(contactMessages)
    .where(where)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(CONTACT_INBOX_PAGE_SIZE)
    .offset((query.page - 1) * CONTACT_INBOX_PAGE_SIZE);
  const [{ total }] = await app.db.select({ total: count() }).from(contactMessages).where(where);
  return { messages: rows.map(toApi), total, unread: await countUnreadContactMessages(app) };
}

/** Marks a message read or unread; null when there is no such message. */
export async function setContactMessageRead(app: FastifyInstance, id: string, isRead: boolean): Promise<ContactMessage | null> {
  const [row] = await app.db
    .update(contactMessages)
    .set({ isRead, readAt: isRead ? app.clock.now() : null })
    .where(eq(contactMessages.id, id))
    .returning();
  return row ? toApi(row) : null;
}

/** How many messages staff have not read yet. */
export async function countUnreadContactMessages(app: FastifyInstance): Promise<number> {
  const [{ n }] = await app.db.select({ n: count() }).from(contactMessages).where(and(eq(contactMessages.isRead, false)));
  return n;
}
