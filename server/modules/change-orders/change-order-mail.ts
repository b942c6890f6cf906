import type { FastifyInstance } from 'fastify';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { formatKobo } from '../../../common/money.ts';
import { PATHS } from '../../../common/paths.ts';
import { changeOrderNumber, scheduleImpactLabel } from '../../../common/schemas/change-orders.ts';
import { renderMail } from '../../mail/layout.ts';
import type { MailInput } from '../../mail/mailer.ts';
import { publishedCompany } from '../site-content/published-company.ts';

const CHANGE_ORDER_MAIL_KIND = 'change-order-notification';

interface ChangeOrderFacts {
  projectId: string;
  projectName: string;
  number: number;
  title: string;
  costKobo: bigint;
  scheduleDays: number;
  at: Date;
}

function dashboardLink(app: FastifyInstance, path: string, projectId: string): string {
  const url = new URL(path, app.config.publicUrl);
  url.searchParams.set('project', projectId);
  url.hash = 'change-orders';
  return url.toString();
}

/** To a client's approver: a change order waits for their decision (its title and impacts, never its text). */
export function changeOrderSentMail(app: FastifyInstance, to: { name: string; email: string }, f: ChangeOrderFacts): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `Change order ${changeOrderNumber(f.number)} for ${f.projectName} waits for your decision`,
    greeting: `Hello ${to.name},`,
    paragraphs: [`The ${company.shortName} team sent a change order on the project "${f.projectName}" for you to approve or decline.`],
    fields: [
      ['Change order', `${changeOrderNumber(f.number)}: ${f.title}`],
      ['Cost impact', formatKobo(f.costKobo, { signed: true })],
      ['Schedule impact', scheduleImpactLabel(f.scheduleDays)],
      ['Sent', formatDateTimeWithZone(f.at)],
    ],
    action: { label: 'Review it on your dashboard', url: dashboardLink(app, PATHS.clientDashboard, f.projectId) },
    footer: [company.name],
  });
  return { to: to.email, ...mail, kind: CHANGE_ORDER_MAIL_KIND };
}

/** To staff (STAFF_EMAIL): the client approved or declined a change order. */
export function changeOrderDecidedMail(app: FastifyInstance, f: ChangeOrderFacts & { approved: boolean; decidedBy: string; comment: string }): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `Change order ${changeOrderNumber(f.number)} for ${f.projectName} ${f.approved ? 'approved' : 'declined'}`,
    greeting: 'Hello,',
    paragraphs: [`${f.decidedBy} ${f.approved ? 'approved' : 'declined'} the change order "${f.title}" on the project "${f.projectName}".`],
    fields: [
      ['Cost impact', formatKobo(f.costKobo, { signed: true })],
      ['Schedule impact', scheduleImpactLabel(f.scheduleDays)],
      ['Decided', formatDateTimeWithZone(f.at)],
      ...(f.comment ? ([['Comment', f.comment]] as [string, string][]) : []),
    ],
    action: { label: 'Open the project', url: dashboardLink(app, PATHS.adminDashboard, f.projectId) },
    footer: [company.name],
  });
  return { to: app.config.STAFF_EMAIL, ...mail, kind: CHANGE_ORDER_MAIL_KIND };
}
