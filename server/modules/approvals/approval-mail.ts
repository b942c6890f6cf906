import type { FastifyInstance } from 'fastify';
import { projectPeopleWith, type ProjectPerson } from '../organisations/project-people.ts';
import { publishedCompany } from '../site-content/published-company.ts';
import { formatDay } from '../../../common/dates.ts';
import { PATHS } from '../../../common/paths.ts';
import { renderMail } from '../../mail/layout.ts';
import type { DbExecutor, MailInput } from '../../mail/mailer.ts';

const APPROVAL_REQUEST_KIND = 'approval-request';
const APPROVAL_DECISION_KIND = 'approval-decision';
const APPROVAL_REMINDER_KIND = 'approval-reminder';

const clientLink = (app: FastifyInstance, projectId: string) => {
  const url = new URL(PATHS.clientDashboard, app.config.publicUrl);
  url.searchParams.set('project', projectId);
  url.hash = 'approvals';
  return url.toString();
};

export type Approver = ProjectPerson;

/** The people of a project's client who may decide (member permission approvals.decide). */
export const approversOf = (tx: DbExecutor, projectId: string): Promise<Approver[]> => projectPeopleWith(tx, projectId, 'approvals.decide');

/** The mail telling an approver that the team asks for their approval (the subject's name, the due date, a link; no content). */
export function approvalRequestMail(
  app: FastifyInstance,
  to: Approver,
  facts: { projectId: string; projectName: string; title: string; version: string; dueOn: string; requestedBy: string },
): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `Approval requested: ${facts.title} (${facts.projectName})`,
    greeting: `Hello ${to.name},`,
    paragraphs: [`${facts.requestedBy} of the ${company.shortName} team asks you to approve or reject this for the project "${facts.projectName}".`],
    fields: [
      ['Subject', facts.title],
      ['Version', facts.version],
      ['Please decide by', formatDay(facts.dueOn)],
    ],
    action: { label: 'Review it on your dashboard', url: clientLink(app, facts.projectId) },
    footer: [company.name],
  });
  return { to: to.email, ...mail, kind: APPROVAL_REQUEST_KIND };
}

/** The mail telling the staff inbox of a client's decision (as message mails reach staff). */
export function approvalDecisionMail(
  app: FastifyInstance,
  facts: { projectName: string; title: string; version: string; decision: 'approved' | 'rejected'; decidedBy: string; comment: string },
): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `${facts.decision === 'approved' ? 'Approved' : 'Rejected'}: ${facts.title} (${facts.projectName})`,
    greeting: 'Hello,',
    paragraphs: [`${facts.decidedBy} ${facts.decision} "${facts.title}" of the project "${facts.projectName}".`],
    fields: [
      ['Version', facts.version],
      ['Comment', facts.comment || '(none)'],
    ],
    action: { label: 'Open the admin dashboard', url: new URL(PATHS.adminDashboard, app.config.publicUrl).toString() },
    footer: [company.name],
  });
  return { to: app.config.STAFF_EMAIL, ...mail, kind: APPROVAL_DECISION_KIND };
}

/** The daily reminder to one approver: every request of theirs due in two days or today (at most one such mail a day). */
export function approvalReminderMail(
  app: FastifyInstance,
  to: Approver,
  items: ReadonlyArray<{ projectId: string; projectName: string; title: string; dueOn: string }>,
  today: string,
): MailInput {
  const dueToday = items.filter((i) => i.dueOn <= today).length;
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: dueToday > 0 ? `Approval due today (${items.length} waiting)` : `Approval due in two days (${items.length} waiting)`,
    greeting: `Hello ${to.name},`,
    paragraphs: [`The ${company.shortName} team is waiting for your decision:`],
    fields: items.map((i) => [`${i.projectName}: ${i.title}`, `due ${formatDay(i.dueOn)}`] as [string, string]),
    action: { label: 'Decide on your dashboard', url: clientLink(app, items[0].projectId) },
    footer: [company.name, 'You receive at most one reminder a day.'],
  });
  return { to: to.email, ...mail, kind: APPROVAL_REMINDER_KIND };
}
