import type { FastifyInstance } from 'fastify';
import { publishedCompany } from '../site-content/published-company.ts';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { PATHS } from '../../../common/paths.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailInput } from '../../mail/mailer.ts';

const DOCUMENT_NOTIFICATION_KIND = 'document-notification';
/** The throttle key of document mails to a client (message_notifications.recipient), apart from its report and message mails. */
export const documentMailRecipient = (clientId: string) => `document:${clientId}`;

/** Where the mail's link lands: the client's dashboard on the project, at the document. */
function documentLink(app: FastifyInstance, projectId: string, documentId: string): string {
  const url = new URL(PATHS.clientDashboard, app.config.publicUrl);
  url.searchParams.set('project', projectId);
  url.hash = `document-${documentId}`;
  return url.toString();
}

/**
 * The mail telling a client that a document (or a new version of one) is on its project: the
 * project, the document's title and version label, and a link behind the sign-in; never the file.
 */
export function documentNotificationMail(
  app: FastifyInstance,
  facts: {
    clientName: string;
    clientEmail: string;
    projectId: string;
    projectName: string;
    documentId: string;
    title: string;
    versionLabel: string;
    newVersion: boolean;
    addedAt: Date;
  },
): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: facts.newVersion ? `New version of ${facts.title} for ${facts.projectName}` : `New document for ${facts.projectName}`,
    greeting: `Hello ${facts.clientName},`,
    paragraphs: [
      facts.newVersion
        ? `The ${company.shortName} team uploaded a new version of "${facts.title}" to the project "${facts.projectName}". The earlier version is kept, marked superseded.`
        : `The ${company.shortName} team shared the document "${facts.title}" on the project "${facts.projectName}".`,
    ],
    fields: [
      ['Document', facts.title],
      ['Version', facts.versionLabel],
      ['Added', formatDateTimeWithZone(facts.addedAt)],
    ],
    action: { label: 'Open the documents on your dashboard', url: documentLink(app, facts.projectId, facts.documentId) },
    footer: [
      company.name,
      'Further documents on this project within 15 minutes are not mailed separately. You can turn these e-mails off under Account on your dashboard (the progress report e-mails setting).',
    ],
  });
  return { to: facts.clientEmail, ...mail, kind: DOCUMENT_NOTIFICATION_KIND };
}
