import { and, asc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { daysBetween, todayIso } from '../../../common/dates.ts';
import { koboToDecimal } from '../../../common/money.ts';
import { INVOICE_POSITION_LABELS, type FinanceOverview } from '../../../common/schemas/invoices.ts';
import { projects } from '../../db/schema/projects.ts';
import { clientOrganisations } from '../../db/schema/users.ts';
import { creditNotes, invoices, payments, paystackTransactions } from '../../db/schema/payments.ts';
import { csvCell } from '../audit/audit.service.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { positionOf } from './finance-read.ts';

// Staff's view across projects (issue 26): invoiced, received and outstanding this month and this
// year, overdue invoices oldest first, and the same invoices as CSV. Within the viewer's project
// scope (a project manager sees their projects' figures only). Amounts are kobo, summed as bigint.

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/** Every issued invoice in the viewer's scope with its position today, overdue first (oldest due date first), then by issue date, newest first. */
async function issuedInvoices(app: FastifyInstance, viewer: ScopeViewer, today: string) {
  const rows = await app.db
    .select({ row: invoices, projectName: projects.name, clientId: projects.clientId, clientName: clientOrganisations.name })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .leftJoin(clientOrganisations, eq(clientOrganisations.id, projects.clientId))
    .where(and(eq(invoices.status, 'issued'), projectScope(viewer)))
    .orderBy(asc(invoices.dueDate), asc(invoices.number));
  const ids = rows.map((r) => r.row.id);
  const [credits, paid] = ids.length
    ? await Promise.all([
        app.db.select().from(creditNotes).where(and(inArray(creditNotes.invoiceId, ids), eq(creditNotes.status, 'issued'))),
        app.db.select().from(payments).where(inArray(payments.invoiceId, ids)),
      ])
    : [[], []];
  const list = rows.map(({ row, projectName, clientId, clientName }) => {
    const ownCredits = credits.filter((c) => c.invoiceId === row.id);
    const ownPaid = paid.filter((p) => p.invoiceId === row.id);
    return { row, projectName, clientId, clientName: clientName ?? '', credits: ownCredits, paid: ownPaid, ...positionOf(row, ownCredits, ownPaid, today) };
  });
  const overdue = list.filter((i) => i.status === 'overdue');
  const rest = list.filter((i) => i.status !== 'overdue').sort((a, b) => (b.row.issueDate! < a.row.issueDate! ? -1 : b.row.issueDate! > a.row.issueDate! ? 1 : 0));
  return { overdue, all: [...overdue, ...rest], credits, paid };
}

/** The overview's figures: this month and this year (Lagos calendar), what is outstanding and overdue, and Paystack payments flagged for a look. */
export async function financeOverview(app: FastifyInstance, viewer: ScopeViewer): Promise<Omit<FinanceOverview, 'success'>> {
  const today = todayIso(app.clock.now());
  const month = today.slice(0, 7);
  const year = today.slice(0, 4);
  const { overdue, all, credits, paid } = await issuedInvoices(app, viewer, today);
  const inPeriod = (day: string | null, prefix: string) => !!day && day.startsWith(prefix);
  const period = (prefix: string) => ({
    invoicedKobo: (sum(all.filter((i) => inPeriod(i.row.issueDate, prefix)).map((i) => i.row.grossKobo)) - sum(credits.filter((c) => inPeriod(c.issueDate, prefix)).map((c) => c.grossKobo))).toString(),
    receivedKobo: sum(paid.filter((p) => !p.voidedAt && inPeriod(p.receivedOn, prefix)).map((p) => p.amountKobo)).toString(),
  });
  const visible = new Set(all.map((i) => i.row.id));
  const flaggedRows = visible.size
    ? await app.db
        .select({ t: paystackTransactions, number: invoices.number })
        .from(paystackTransactions)
        .innerJoin(invoices, eq(invoices.id, paystackTransactions.invoiceId))
        .where(and(eq(paystackTransactions.status, 'amount_mismatch'), inArray(paystackTransactions.invoiceId, [...visible])))
        .orderBy(asc(paystackTransactions.updatedAt))
    : [];
  return {
    today,
    month: period(month),
    year: period(year),
    outstandingKobo: sum(all.map((i) => i.outstandingKobo)).toString(),
    overdueKobo: sum(overdue.map((i) => i.outstandingKobo)).toString(),
    overdue: overdue.map((i) => ({
      invoiceId: i.row.id,
      number: i.row.number!,
      projectId: i.row.projectId,
      projectName: i.projectName,
      clientId: i.clientId,
      clientName: i.clientName,
      issueDate: i.row.issueDate!,
      dueDate: i.row.dueDate!,
      daysOverdue: daysBetween(i.row.dueDate!, today),
      grossKobo: i.row.grossKobo.toString(),
      outstandingKobo: i.outstandingKobo.toString(),
    })),
    flagged: flaggedRows.map(({ t, number }) => ({
      reference: t.reference,
      invoiceNumber: number ?? '',
      askedKobo: t.amountKobo.toString(),
      paidKobo: (t.paidAmountKobo ?? 0n).toString(),
      at: t.updatedAt.toISOString(),
    })),
  };
}

const CSV_HEADER = ['Invoice', 'Project', 'Client', 'Issue date', 'Due date', 'Status', 'Days overdue', 'Total (NGN)', 'Credited (NGN)', 'Paid (NGN)', 'Outstanding (NGN)'];
const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** Every issued invoice in scope as CSV (overdue first, oldest first): amounts as plain decimal naira a spreadsheet sums exactly. */
export async function financeCsv(app: FastifyInstance, viewer: ScopeViewer): Promise<string> {
  const today = todayIso(app.clock.now());
  const { all } = await issuedInvoices(app, viewer, today);
  const lines = [csvLine(CSV_HEADER)];
  for (const i of all) {
    lines.push(
      csvLine([
        i.row.number!,
        i.projectName,
        i.clientName,
        i.row.issueDate!,
        i.row.dueDate!,
        INVOICE_POSITION_LABELS[i.status],
        i.status === 'overdue' ? String(daysBetween(i.row.dueDate!, today)) : '',
        koboToDecimal(i.row.grossKobo),
        koboToDecimal(i.creditedKobo),
        koboToDecimal(i.appliedKobo),
        koboToDecimal(i.outstandingKobo),
      ]),
    );
  }
  return lines.join('');
}
