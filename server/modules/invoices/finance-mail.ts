import type { FastifyInstance } from 'fastify';
import { formatDay } from '../../../common/dates.ts';
import { formatKobo } from '../../../common/money.ts';
import { PATHS } from '../../../common/paths.ts';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../common/schemas/invoices.ts';
import { renderMail } from '../../mail/layout.ts';
import type { DbExecutor, MailInput } from '../../mail/mailer.ts';
import { projectPeopleWith, type ProjectPerson } from '../organisations/project-people.ts';
import { publishedCompany } from '../site-content/published-company.ts';

// The payment plan's mails (issue 26, decision 298): an issued invoice, a receipt, reminders. They
// go to the client's people who may see invoices (member permission finance.read: its admins,
// approvers and finance members) and who see the project; they carry figures and a link, never the PDF.

const FINANCE_MAIL_KIND = 'invoice-notification';

export type FinancePerson = ProjectPerson;

/** The client people of a project who may see its invoices (member permission finance.read). */
export const financePeopleOf = (tx: DbExecutor, projectId: string): Promise<FinancePerson[]> => projectPeopleWith(tx, projectId, 'finance.read');

/** The portal link straight to an invoice: the client dashboard on the project, scrolled to the invoice. */
export function invoiceLink(app: FastifyInstance, projectId: string, invoiceId: string): string {
  const url = new URL(PATHS.clientDashboard, app.config.publicUrl);
  url.searchParams.set('project', projectId);
  url.hash = `invoice-${invoiceId}`;
  return url.toString();
}

interface InvoiceFacts {
  projectId: string;
  projectName: string;
  invoiceId: string;
  number: string;
  grossKobo: bigint;
  dueDate: string;
}

export function invoiceIssuedMail(app: FastifyInstance, to: FinancePerson, f: InvoiceFacts): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `Invoice ${f.number} for ${f.projectName}: ${formatKobo(f.grossKobo)} due ${formatDay(f.dueDate)}`,
    greeting: `Hello ${to.name},`,
    paragraphs: [`${company.shortName} has issued invoice ${f.number} on the project "${f.projectName}". The invoice, its PDF and how to pay are on your dashboard.`],
    fields: [
      ['Invoice', f.number],
      ['Total', formatKobo(f.grossKobo)],
      ['Due', formatDay(f.dueDate)],
    ],
    action: { label: 'Open the invoice', url: invoiceLink(app, f.projectId, f.invoiceId) },
    footer: [company.name],
  });
  return { to: to.email, ...mail, kind: FINANCE_MAIL_KIND };
}

export function receiptMail(
  app: FastifyInstance,
  to: FinancePerson,
  f: InvoiceFacts & { amountKobo: bigint; receivedOn: string; method: PaymentMethod; outstandingKobo: bigint },
): MailInput {
  const company = publishedCompany(app);
  const mail = renderMail({
    subject: `Payment received: ${formatKobo(f.amountKobo)} on invoice ${f.number}`,
    greeting: `Hello ${to.name},`,
    paragraphs: [
      `Thank you: ${company.shortName} has received ${formatKobo(f.amountKobo)} against invoice ${f.number} on the project "${f.projectName}".`,
      f.outstandingKobo === 0n ? 'The invoice is now paid in full.' : `${formatKobo(f.outstandingKobo)} remains outstanding.`,
    ],
    fields: [
      ['Amount', formatKobo(f.amountKobo)],
      ['Received', formatDay(f.receivedOn)],
      ['Method', PAYMENT_METHOD_LABELS[f.method]],
      ['Outstanding', formatKobo(f.outstandingKobo)],
    ],
    action: { label: 'See the invoice and the receipt', url: invoiceLink(app, f.projectId, f.invoiceId) },
    footer: [company.name],
  });
  return { to: to.email, ...mail, kind: FINANCE_MAIL_KIND };
}

export type ReminderKind = 'due_soon' | 'overdue';

export function reminderMail(app: FastifyInstance, to: FinancePerson, f: InvoiceFacts & { outstandingKobo: bigint; kind: ReminderKind }): MailInput {
  const company = publishedCompany(app);
  const due = formatDay(f.dueDate);
  const mail = renderMail({
    subject:
      f.kind === 'due_soon'
        ? `Reminder: invoice ${f.number} (${formatKobo(f.outstandingKobo)}) is due on ${due}`
        : `Invoice ${f.number} is overdue: ${formatKobo(f.outstandingKobo)} was due on ${due}`,
    greeting: `Hello ${to.name},`,
    paragraphs: [
      f.kind === 'due_soon'
        ? `A friendly reminder that invoice ${f.number} on the project "${f.projectName}" falls due on ${due}.`
        : `Invoice ${f.number} on the project "${f.projectName}" fell due on ${due} and is not yet paid in full. If you have paid in the last few days, thank you, and please ignore this reminder.`,
    ],
    fields: [
      ['Invoice', f.number],
      ['Outstanding', formatKobo(f.outstandingKobo)],
      ['Due', due],
    ],
    action: { label: 'Open the invoice', url: invoiceLink(app, f.projectId, f.invoiceId) },
    footer: [company.name],
  });
  return { to: to.email, ...mail, kind: FINANCE_MAIL_KIND };
}

/** To staff: Paystack reported a payment whose amount or currency differs from what was asked (recorded, not counted). */
export function paymentMismatchMail(app: FastifyInstance, f: { number: string; projectName: string; reference: string; askedKobo: bigint; paidKobo: bigint; currency: string }): MailInput {
  const mail = renderMail({
    subject: `Check a Paystack payment on invoice ${f.number}: the amount differs`,
    greeting: 'Hello,',
    paragraphs: [
      `Paystack reported a payment on invoice ${f.number} (project "${f.projectName}") for an amount other than the one asked. It was recorded and flagged; it does not count against the invoice until staff record it.`,
    ],
    fields: [
      ['Reference', f.reference],
      ['Asked', formatKobo(f.askedKobo)],
      ['Paid', `${formatKobo(f.paidKobo)} (${f.currency})`],
    ],
    action: { label: 'Open the finance overview', url: new URL(PATHS.adminDashboard, app.config.publicUrl).toString() },
    footer: [publishedCompany(app).name],
  });
  return { to: app.config.STAFF_EMAIL, ...mail, kind: FINANCE_MAIL_KIND };
}
