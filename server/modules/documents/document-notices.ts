import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import { queueMail, type DbExecutor } from '../../mail/mailer.ts';
import { claimNotification } from '../messages/message-notifications.ts';
import { documentMailRecipient, documentNotificationMail } from './document-mail.ts';
import type { DocumentRow } from './document-rows.ts';

type DocumentNotice = { mailId: string | null };

/**
 * In the writing transaction: the live event (staff only while the client cannot see the document)
 * and, when the client can, the mail to the client by the report mails' rules (their setting, one
 * per project per quiet period, decision 292).
 */
export async function announceDocument(
  app: FastifyInstance,
  tx: DbExecutor,
  facts: { clientId: string; projectId: string; projectName: string; document: DocumentRow; versionLabel: string; kind: 'created' | 'version' | 'shown' | 'updated' },
): Promise<DocumentNotice> {
  const { clientId, projectId, document } = facts;
  const type = !document.visibleToClient ? 'document.internal' : facts.kind === 'created' ? 'document.created' : 'document.updated';
  await publishChange(tx, { type, clientId, projectId, id: document.id });
  if (!document.visibleToClient || facts.kind === 'updated') return { mailId: null };
  const now = app.clock.now();
  const [client] = await tx.select({ name: users.name, email: users.email, reportMail: users.reportMail }).from(users).where(eq(users.id, clientId));
  if (!client?.reportMail || !(await claimNotification(tx, now, projectId, documentMailRecipient(clientId)))) return { mailId: null };
  const mail = documentNotificationMail(app, {
    clientName: client.name,
    clientEmail: client.email,
    projectId,
    projectName: facts.projectName,
    documentId: document.id,
    title: document.title,
    versionLabel: facts.versionLabel,
    newVersion: facts.kind === 'version',
    addedAt: now,
  });
  return { mailId: await queueMail(tx, app, mail) };
}
