import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { todayIso } from '../../../common/dates.ts';
import {
  invoiceStatus,
  milestoneAmounts,
  planBalance,
  remainingOfLine,
  type MilestoneAmount,
} from '../../../common/invoice-math.ts';
import {
  creditNotePdfUrl,
  invoicePdfUrl,
  receiptPdfUrl,
  type Invoice,
  type Milestone,
  type ProjectFinance,
} from '../../../common/schemas/invoices.ts';
import { conflict, notFound } from '../../../common/errors.ts';
import { projects } from '../../db/schema/projects.ts';
import { ganttCharts as timelines } from '../../db/schema/timelines.ts';
import {
  creditNoteLines,
  creditNotes,
  FINANCE_SETTINGS_DEFAULTS,
  financeSettings,
  invoiceLines,
  invoices,
  paymentMilestones,
  payments,
} from '../../db/schema/payments.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';

// What the payment plan's screens and documents read (issue 26, decision 298). Every amount is
// bigint kobo, every position computed by common/invoice-math.ts when read, never stored.

export type FinanceSettingsRow = typeof financeSettings.$inferSelect;

/** The finance settings: the saved row, or the defaults until staff first save them. */
export async function financeSettingsOf(
  db: DbExecutor,
): Promise<Omit<FinanceSettingsRow, 'id' | 'updatedBy' | 'updatedAt'> & { updatedAt: Date | null }> {
  const [row] = await db.select().from(financeSettings).where(eq(financeSettings.id, 1));
  if (row) return row;
  return {
    ...FINANCE_SETTINGS_DEFAULTS,
    taxId: '',
    bankName: '',
    bankAccountName: '',
    bankAccountNumber: '',
    updatedAt: null,
  };
}

/** Whether online payment is on: Paystack's secret key is configured. */
export const payOnlineEnabled = (app: FastifyInstance): boolean => Boolean(app.config.PAYSTACK_SECRET_KEY);

type InvoiceRow = typeof invoices.$inferSelect;
type LineRow = typeof invoiceLines.$inferSelect;
type CreditRow = typeof creditNotes.$inferSelect;
type CreditLineRow = typeof creditNoteLines.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/**
 * The lines, issued credit notes (with their lines) and payments of some invoices, in four queries
 * whatever the count; `parallel` only on the pool (a transaction's one connection runs one at a time).
 */
async function partsOf(db: DbExecutor, ids: string[], parallel = false) {
  if (ids.length === 0)
    return {
      lines: [] as LineRow[],
      credits: [] as CreditRow[],
      creditLines: [] as CreditLineRow[],
      paid: [] as PaymentRow[],
    };
  const reads = [
    () =>
      db.select().from(invoiceLines).where(inArray(invoiceLines.invoiceId, ids)).orderBy(asc(invoiceLines.position)),
    () =>
      db
        .select()
        .from(creditNotes)
        .where(and(inArray(creditNotes.invoiceId, ids), eq(creditNotes.status, 'issued')))
        .orderBy(asc(creditNotes.issuedAt)),
    () =>
      db
        .select()
        .from(payments)
        .where(inArray(payments.invoiceId, ids))
        .orderBy(asc(payments.receivedOn), asc(payments.recordedAt), asc(payments.id)),
  ] as const;
  const [lines, credits, paid] = parallel
    ? await Promise.all([reads[0](), reads[1](), reads[2]()])
    : [await reads[0](), await reads[1](), await reads[2]()];
  const creditLines = credits.length
    ? await db
        .select()
        .from(creditNoteLines)
        .where(
          inArray(
            creditNoteLines.creditNoteId,
            credits.map((c) => c.id),
          ),
        )
    : [];
  return { lines, credits, creditLines, paid };
}

const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);

/** Rows grouped by a key, each group in the rows' order. */
function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/** An invoice's figures: its credited and paid sums and, once issued, its position today. */
export function positionOf(row: InvoiceRow, credits: CreditRow[], paid: PaymentRow[], today: string) {
  const creditedKobo = sum(credits.map((c) => c.grossKobo));
  const paidKobo = sum(paid.filter((p) => !p.voidedAt).map((p) => p.amountKobo));
  if (row.status !== 'issued')
    return { status: 'draft' as const, creditedKobo, paidKobo, appliedKobo: 0n, outstandingKobo: 0n, overpaidKobo: 0n };
  const position = invoiceStatus({
    total: row.grossKobo,
    credited: creditedKobo,
    paid: paidKobo,
    dueDate: row.dueDate!,
    today,
  });
  return { ...position, creditedKobo, paidKobo };
}

/** Invoices as the API answers them. */
export async function invoicesOut(
  db: DbExecutor,
  rows: InvoiceRow[],
  today: string,
  milestoneNames: Map<string, string>,
  parallel = false,
): Promise<Invoice[]> {
  const { lines, credits, creditLines, paid } = await partsOf(
    db,
    rows.map((r) => r.id),
    parallel,
  );
  const linesOf = groupBy(lines, (l) => l.invoiceId);
  const creditsOf = groupBy(credits, (c) => c.invoiceId);
  const paidOf = groupBy(paid, (p) => p.invoiceId);
  // Credit lines are of issued credit notes only (partsOf reads those), so grouping by invoice line is enough.
  const creditLinesOf = groupBy(creditLines, (c) => c.invoiceLineId);
  return rows.map((row) => {
    const ownCredits = creditsOf.get(row.id) ?? [];
    const ownPaid = paidOf.get(row.id) ?? [];
    const position = positionOf(row, ownCredits, ownPaid, today);
    return {
      _id: row.id,
      projectId: row.projectId,
      milestoneId: row.milestoneId,
      milestoneName: row.milestoneId ? (milestoneNames.get(row.milestoneId) ?? null) : null,
      number: row.number,
      status: position.status,
      issueDate: row.issueDate,
      dueDate: row.dueDate,
      notes: row.notes,
      netKobo: row.netKobo.toString(),
      vatKobo: row.vatKobo.toString(),
      grossKobo: row.grossKobo.toString(),
      creditedKobo: position.creditedKobo.toString(),
      paidKobo: position.paidKobo.toString(),
      outstandingKobo: position.outstandingKobo.toString(),
      overpaidKobo: position.overpaidKobo.toString(),
      lines: (linesOf.get(row.id) ?? []).map((l) => {
        const remaining = remainingOfLine(l, creditLinesOf.get(l.id) ?? []);
        return {
          _id: l.id,
          description: l.description,
          quantity: l.quantity,
          unitPriceKobo: l.unitPriceKobo.toString(),
          vatRateBp: l.vatRateBp,
          netKobo: l.netKobo.toString(),
          vatKobo: l.vatKobo.toString(),
          remainingNetKobo: remaining.netKobo.toString(),
        };
      }),
      creditNotes: ownCredits.map((c) => ({
        _id: c.id,
        number: c.number!,
        issueDate: c.issueDate!,
        reason: c.reason,
        netKobo: c.netKobo.toString(),
        vatKobo: c.vatKobo.toString(),
        grossKobo: c.grossKobo.toString(),
        pdfUrl: creditNotePdfUrl(c.id),
      })),
      payments: ownPaid.map((p) => ({
        _id: p.id,
        amountKobo: p.amountKobo.toString(),
        receivedOn: p.receivedOn,
        method: p.method,
        reference: p.reference,
        note: p.note,
        recordedAt: p.recordedAt.toISOString(),
        voided: p.voidedAt !== null,
        voidReason: p.voidReason,
        receiptUrl: receiptPdfUrl(p.id),
      })),
      pdfUrl: row.status === 'issued' ? invoicePdfUrl(row.id) : null,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

/** The project a viewer may see (another client's, or one outside a manager's assignments, is 404 like a missing one). */
async function visibleProject(db: DbExecutor, viewer: ScopeViewer, projectId: string) {
  const [row] = await db
    .select({ id: projects.id, clientId: projects.clientId, name: projects.name, budgetKobo: projects.budgetKobo })
    .from(projects)
    .where(and(eq(projects.id, projectId), projectScope(viewer)))
    .limit(1);
  if (!row) throw notFound('Project not found');
  return row;
}

type MilestoneRow = typeof paymentMilestones.$inferSelect;

const asAmountInput = (m: MilestoneRow): MilestoneAmount =>
  m.shareBp !== null ? { shareBp: m.shareBp } : { amountKobo: m.amountKobo ?? 0n };

/** Each milestone's kobo against the contract sum (shares apportioned, decision 298). */
export const resolveMilestones = (contractSumKobo: bigint, rows: MilestoneRow[]): bigint[] =>
  milestoneAmounts(contractSumKobo, rows.map(asAmountInput));

/** A project's milestones in order. */
export const milestoneRowsOf = (db: DbExecutor, projectId: string) =>
  db
    .select()
    .from(paymentMilestones)
    .where(eq(paymentMilestones.projectId, projectId))
    .orderBy(asc(paymentMilestones.position));

/**
 * A project's payment plan, invoices and balance for a viewer: staff see drafts too, a client the
 * issued invoices only (the route admits the client's finance members and approvers alone).
 */
export async function projectFinance(
  app: FastifyInstance,
  viewer: ScopeViewer,
  projectId: string,
): Promise<Omit<ProjectFinance, 'success'>> {
  const db = app.db;
  const project = await visibleProject(db, viewer, projectId);
  const today = todayIso(app.clock.now());
  const [milestones, rows, settings] = await Promise.all([
    milestoneRowsOf(db, projectId),
    db
      .select()
      .from(invoices)
      .where(
        and(eq(invoices.projectId, projectId), viewer.role === 'admin' ? undefined : eq(invoices.status, 'issued')),
      )
      .orderBy(desc(invoices.createdAt), desc(invoices.id)),
    financeSettingsOf(db),
  ]);
  const names = new Map(milestones.map((m) => [m.id, m.name]));
  // The timelines only when a milestone depends on one (most plans name none: one statement fewer).
  const timelineIds = [...new Set(milestones.flatMap((m) => m.dependsOn.map((d) => d.timelineId)))];
  const [list, plans] = await Promise.all([
    invoicesOut(db, rows, today, names, true),
    timelineIds.length
      ? db
          .select({ id: timelines.id, title: timelines.projectTitle, tasks: timelines.tasks })
          .from(timelines)
          .where(and(eq(timelines.projectId, projectId), inArray(timelines.id, timelineIds)))
      : Promise.resolve([]),
  ]);
  const issued = list.filter((i) => i.status !== 'draft');
  const amounts = resolveMilestones(project.budgetKobo, milestones);
  const invoicedOn = (milestoneId: string) =>
    sum(issued.filter((i) => i.milestoneId === milestoneId).map((i) => BigInt(i.grossKobo) - BigInt(i.creditedKobo)));
  const byTimeline = new Map(plans.map((p) => [p.id, p]));
  const outMilestones: Milestone[] = milestones.map((m, i) => ({
    _id: m.id,
    position: m.position,
    name: m.name,
    amountKobo: m.amountKobo === null ? null : m.amountKobo.toString(),
    shareBp: m.shareBp,
    resolvedKobo: amounts[i].toString(),
    dueDate: m.dueDate,
    dependsOn: m.dependsOn.map((d) => {
      const plan = byTimeline.get(d.timelineId);
      const task = plan?.tasks.find((t) => t.task === d.task);
      return {
        timelineId: d.timelineId,
        task: d.task,
        timelineTitle: plan?.title ?? null,
        onTimeline: !!task,
        done: task?.status === 'completed',
      };
    }),
    invoicedKobo: invoicedOn(m.id).toString(),
  }));
  const planned = sum(amounts);
  const invoiced = sum(issued.map((i) => BigInt(i.grossKobo) - BigInt(i.creditedKobo)));
  const paid = sum(issued.map((i) => BigInt(i.paidKobo) - BigInt(i.overpaidKobo)));
  const outstanding = sum(issued.map((i) => BigInt(i.outstandingKobo)));
  return {
    projectId,
    projectName: project.name,
    summary: {
      contractSumKobo: project.budgetKobo.toString(),
      plannedKobo: planned.toString(),
      planBalanceKobo: planBalance(project.budgetKobo, amounts).toString(),
      invoicedKobo: invoiced.toString(),
      paidKobo: paid.toString(),
      outstandingKobo: outstanding.toString(),
    },
    milestones: outMilestones,
    invoices: list,
    bank: {
      bankName: settings.bankName,
      accountName: settings.bankAccountName,
      accountNumber: settings.bankAccountNumber,
    },
    vatRateBp: settings.vatRateBp,
    payOnline: payOnlineEnabled(app),
  };
}

/**
 * One issued invoice's balance, read in the caller's transaction (lock the invoice row first when
 * the answer decides a write): what Paystack is asked for, and what a recorded payment may not pass.
 */
export async function invoiceBalance(db: DbExecutor, invoiceId: string, today: string) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  if (!row) return null;
  const credits = await db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.invoiceId, invoiceId), eq(creditNotes.status, 'issued')));
  const paid = await db
    .select()
    .from(payments)
    .where(and(eq(payments.invoiceId, invoiceId), isNull(payments.voidedAt)));
  const [project] = await db
    .select({ clientId: projects.clientId, name: projects.name })
    .from(projects)
    .where(eq(projects.id, row.projectId));
  const position = positionOf(row, credits, paid, today);
  return { row, projectName: project.name, clientId: project.clientId, ...position };
}

/**
 * Refuses to delete projects that have invoices (drafts included): issued invoices are tax documents
 * the company keeps, and the database's RESTRICT would refuse anyway; the project is archived instead.
 */
export async function refuseDeleteWhenInvoiced(
  tx: DbExecutor,
  projectIds: string[],
  what: 'project' | 'client',
): Promise<void> {
  if (projectIds.length === 0) return;
  const [found] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(inArray(invoices.projectId, projectIds))
    .limit(1);
  if (found) throw conflict(`This ${what} has invoices, which are kept: archive it instead of deleting it`);
}
