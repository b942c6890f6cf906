import type { FastifyInstance } from 'fastify';
import { formatDateTimeWithZone, formatDay } from '../../../common/dates.ts';
import { PATHS } from '../../../common/paths.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailInput } from '../../mail/mailer.ts';
import { publishedCompany } from '../site-content/published-company.ts';

export const REPORT_NOTIFICATION_KIND = 'report-notification';
/** The throttle key of report mails to a client (message_notifications.recipient), apart from its message mails. */
export const reportMailRecipient = (clientId: string) => `report:${clientId}`;

/** Where the mail's link lands: the client's dashboard on the project, scrolled to the report. */
function reportLink(app: FastifyInstance, projectId: string, reportId: string): string {
  const url = new URL(PATHS.clientDashboard, app.config.publicUrl);
  url.searchParams.set('project', projectId);
  url.hash = `report-${reportId}`;
  return url.toString();
}

/**
 * The mail telling a client that a progress report was added (or, `corrected`, that staff corrected
 * one and chose to say so): the project, the report's date and a link to it behind the sign-in;
 * never the report's content.
 */
export function reportNotificationMail(
  app: FastifyInstance,
  facts: { clientName: string; clientEmail: string; projectId: string; projectName: string; reportId: string; reportDate: string; corrected?: boolean; /** When it was added, or for a correction when it was corrected. */ addedAt: Date },
): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: facts.corrected ? `Progress report corrected for ${facts.projectName}` : `New progress report for ${facts.projectName}`,
    greeting: `Hello ${facts.clientName},`,
    paragraphs: [
      facts.corrected
        ? `The ${company.shortName} team corrected a progress report of the project "${facts.projectName}".`
        : `The ${company.shortName} team added a progress report to the project "${facts.projectName}".`,
    ],
    // The time names its zone: a client abroad reads it right (issue 22).
    fields: [
      ['Report date', formatDay(facts.reportDate)],
      [facts.corrected ? 'Corrected' : 'Added', formatDateTimeWithZone(facts.addedAt)],
    ],
    action: { label: 'Read the report on your dashboard', url: reportLink(app, facts.projectId, facts.reportId) },
    footer: [
      company.name,
      facts.corrected
        ? 'You can turn these e-mails off under Account on your dashboard.'
        : 'Further reports on this project within 15 minutes are not mailed separately. You can turn these e-mails off under Account on your dashboard.',
    ],
  });
  return { to: facts.clientEmail, ...mail, kind: REPORT_NOTIFICATION_KIND };
}
