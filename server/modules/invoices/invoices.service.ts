import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict, notFound } from '../../../common/errors.ts';
import { addDays, todayIso } from '../../../common/dates.ts';
import { creditLine, documentTotals, lineAmounts, remainingOfLine, VAT_RATE_BP_DEFAULT } from '../../../common/invoice-math.ts';
import { formatKobo, KOBO_MAX } from '../../../common/money.ts';
import type { Invoice, PaymentMethod } from '../../../common/schemas/invoices.ts';
import { projects } from '../../db/schema/projects.ts';
import { clientOrganisations, users } from '../../db/schema/users.ts';
import { creditNoteLines, creditNotes, financeSettings, invoiceLines, invoices, paymentMilestones, payments } from '../../db/schema/payments.ts';
import { ganttCharts as timelines } from '../../db/schema/timelines.ts';
import { publishChange } from '../../events/portal-events.ts';
import { queueMail, type DbExecutor } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { publishedCompany } from '../site-content/published-company.ts';
import { allocateDocumentNumber } from './document-numbers.ts';
import { financePeopleOf, invoiceIssuedMail, receiptMail } from './finance-mail.ts';
import { financeSettingsOf, invoiceBalance, invoicesOut, milestoneRowsOf, resolveMilestones } from './finance-read.ts';

// The payment plan's writes (issue 26, decision 298). Every write locks the project against
// archiving (lockWritableProject), then the invoice row FOR UPDATE: two payments, a payment and a
// credit note, or two issues of one draft are serialised, and each reads the balance after the
// other committed. Issued documents are frozen by triggers; the code refuses first with a message.

type Tx = Parameters<Parameters<FastifyInstance['db']['transaction']>[0]>[0];

const NOT_A_DRAFT = 'This invoice is issued and never changes: correct it with a credit note';
const NOT_ISSUED = 'This invoice is a draft: issue it first';

// ---------------------------------------------------------------- the plan

export interface PlanInput {
  milestones: Array<{ id?: string; name: string; amount?: string; share?: number; dueDate: string | null; dependsOn: Array<{ timelineId: string; task: string }> }>;
}

/**
 * Replaces a project's payment plan (staff): milestones keep their ids where given, new ones are
 * added, those left out are removed unless an invoice names them (409). The amounts need not add up
 * to the contract sum: the plan shows the difference (decision 298).
 */
export async function replacePlan(app: FastifyInstance, viewer: ScopeViewer, projectId: string, input: PlanInput, who: AuditContext): Promise<void> {
  await app.db.transaction(async (tx) => {
    const { clientId } = await lockWritableProject(tx, viewer, projectId);
    const existing = await milestoneRowsOf(tx, projectId);
    const known = new Set(existing.map((m) => m.id));
    for (const m of input.milestones) if (m.id && !known.has(m.id)) throw badRequest('A milestone of another plan was sent: reload the plan');
    const ids = input.milestones.map((m) => m.id).filter(Boolean);
    if (new Set(ids).size !== ids.length) throw badRequest('A milestone was sent twice');
    // A dependency the milestone already had stays, even when its timeline has since been deleted
    // (it shows as no longer on the timeline); only a new one must name a timeline of this project.
    const had = new Set(existing.flatMap((m) => m.dependsOn.map((d) => `${m.id} ${d.timelineId}`)));
    const timelineIds = [
      ...new Set(input.milestones.flatMap((m) => m.dependsOn.filter((d) => !(m.id && had.has(`${m.id} ${d.timelineId}`))).map((d) => d.timelineId))),
    ];
    if (timelineIds.length) {
      const found = await tx.select({ id: timelines.id }).from(timelines).where(and(eq(timelines.projectId, projectId), inArray(timelines.id, timelineIds)));
      if (found.length !== timelineIds.length) throw badRequest('A milestone depends on a timeline of another project');
    }
    const kept = new Set(ids);
    const removed = existing.filter((m) => !kept.has(m.id));
    if (removed.length) {
      const invoiced = await tx
        .select({ milestoneId: invoices.milestoneId })
        .from(invoices)
        .where(inArray(invoices.milestoneId, removed.map((m) => m.id)))
        .limit(1);
      if (invoiced.length) {
        const name = removed.find((m) => m.id === invoiced[0].milestoneId)?.name ?? '';
        throw conflict(`The milestone "${name}" has an invoice and stays in the plan`);
      }
      await tx.delete(paymentMilestones).where(inArray(paymentMilestones.id, removed.map((m) => m.id)));
    }
    const now = app.clock.now();
    // Positions move through negatives first, so a reorder never meets the (project, position) uniqueness half-way.
    if (ids.length) await tx.update(paymentMilestones).set({ position: sql`-1 - ${paymentMilestones.position}` }).where(inArray(paymentMilestones.id, ids as string[]));
    for (const [position, m] of input.milestones.entries()) {
      const values = {
        position,
        name: m.name,
        amountKobo: m.amount !== undefined ? BigInt(m.amount) : null,
        shareBp: m.share ?? null,
        dueDate: m.dueDate,
        dependsOn: m.dependsOn,
        updatedAt: now,
      };
      if (m.id) await tx.update(paymentMilestones).set(values).where(eq(paymentMilestones.id, m.id));
      else await tx.insert(paymentMilestones).values({ ...values, projectId, createdBy: who.actorId, createdAt: now });
    }
    await publishChange(tx, { type: 'finance.plan', clientId, projectId, id: projectId });
    await recordAudit(tx, who, {
      action: 'finance.plan',
      entityId: projectId,
      projectId,
      before: { milestones: existing.map((m) => ({ name: m.name, amount: m.amountKobo?.toString() ?? null, shareBp: m.shareBp, dueDate: m.dueDate })) },
      after: { milestones: input.milestones.map((m) => ({ name: m.name, amount: m.amount ?? null, shareBp: m.share ?? null, dueDate: m.dueDate })) },
    });
  });
}

// ---------------------------------------------------------------- invoices

interface LineInput {
  description: string;
  quantity: number;
  /** Kobo text. */
  unitPrice: string;
  vatable: boolean;
}

/** Lines with their amounts by the rule of decision 298, refused when a total passes the largest amount. */
function pricedLines(lines: LineInput[], rateBp: number) {
  const priced = lines.map((l, position) => {
    const unitPriceKobo = BigInt(l.unitPrice);
    const vatRateBp = l.vatable ? rateBp : 0;
    if (unitPriceKobo * BigInt(l.quantity) > KOBO_MAX) throw badRequest(`Line ${position + 1}: the amount is too large`);
    return { position, description: l.description, quantity: l.quantity, unitPriceKobo, vatRateBp, ...lineAmounts({ quantity: l.quantity, unitPriceKobo, vatRateBp }) };
  });
  const totals = documentTotals(priced);
  if (totals.grossKobo > KOBO_MAX) throw badRequest('The invoice total is too large');
  return { priced, totals };
}

async function lockInvoice(tx: Tx, viewer: ScopeViewer, id: string) {
  const [found] = await tx
    .select({ projectId: invoices.projectId })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(invoices.id, id), projectScope(viewer)));
  if (!found) throw notFound('Invoice not found');
  const { clientId } = await lockWritableProject(tx, viewer, found.projectId);
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
  return { row, clientId };
}

/** One invoice as the API answers it (read in the caller's transaction). */
async function invoiceOut(app: FastifyInstance, db: DbExecutor, id: string): Promise<Invoice> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  const names = new Map<string, string>();
  if (row.milestoneId) {
    const [m] = await db.select({ name: paymentMilestones.name }).from(paymentMilestones).where(eq(paymentMilestones.id, row.milestoneId));
    if (m) names.set(row.milestoneId, m.name);
  }
  const [out] = await invoicesOut(db, [row], todayIso(app.clock.now()), names);
  return out;
}

/** A staff-visible invoice, for reads (404 outside the viewer's scope; a client never sees a draft). */
export async function visibleInvoice(db: DbExecutor, viewer: ScopeViewer, id: string) {
  const [found] = await db
    .select({ row: invoices, projectName: projects.name, clientId: projects.clientId })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(invoices.id, id), projectScope(viewer), viewer.role === 'admin' ? undefined : eq(invoices.status, 'issued')));
  if (!found) throw notFound('Invoice not found');
  return found;
}

async function writeLines(tx: Tx, invoiceId: string, priced: ReturnType<typeof pricedLines>['priced']) {
  await tx.delete(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId));
  if (priced.length)
    await tx.insert(invoiceLines).values(
      priced.map((l) => ({
        invoiceId,
        position: l.position,
        description: l.description,
        quantity: l.quantity,
        unitPriceKobo: l.unitPriceKobo,
        vatRateBp: l.vatRateBp,
        netKobo: l.netKobo,
        vatKobo: l.vatKobo,
      })),
    );
}

export interface InvoiceFields {
  milestoneId?: string | null;
  lines?: LineInput[];
  notes?: string;
  dueDate?: string | null;
}

/**
 * Drafts an invoice (staff). On a milestone without lines, its one line is the milestone's amount
 * against the current contract sum, less what was already invoiced on it.
 */
export async function createInvoice(app: FastifyInstance, viewer: ScopeViewer, projectId: string, fields: InvoiceFields, who: AuditContext): Promise<Invoice> {
  return app.db.transaction(async (tx) => {
    const { clientId } = await lockWritableProject(tx, viewer, projectId);
    const settings = await financeSettingsOf(tx);
    let lines = fields.lines;
    if (fields.milestoneId) {
      const milestones = await milestoneRowsOf(tx, projectId);
      const index = milestones.findIndex((m) => m.id === fields.milestoneId);
      if (index < 0) throw badRequest('That milestone is not in this project’s plan');
      if (!lines?.length) {
        const [project] = await tx.select({ budgetKobo: projects.budgetKobo }).from(projects).where(eq(projects.id, projectId));
        const amount = resolveMilestones(project.budgetKobo, milestones)[index];
        if (amount <= 0n) throw badRequest('This milestone comes to nothing: give its amount or share first');
        // What is left of it: its amount less the net of its invoices (drafts included) less what credit notes took back.
        const [{ invoiced, credited }] = await tx
          .select({
            invoiced: sql<string>`coalesce(sum(${invoices.netKobo}), 0)::text`,
            credited: sql<string>`coalesce((select sum(c.net_kobo) from credit_notes c join invoices i on i.id = c.invoice_id where i.milestone_id = ${fields.milestoneId} and c.status = 'issued'), 0)::text`,
          })
          .from(invoices)
          .where(eq(invoices.milestoneId, fields.milestoneId));
        const left = amount - BigInt(invoiced) + BigInt(credited);
        if (left <= 0n) throw conflict(`The milestone "${milestones[index].name}" is invoiced in full: raise an invoice with lines of its own for anything more`);
        const part = left < amount ? ' (the rest)' : '';
        lines = [{ description: `Milestone: ${milestones[index].name}${part}`, quantity: 1, unitPrice: left.toString(), vatable: true }];
      }
    }
    const { priced, totals } = pricedLines(lines!, settings.vatRateBp ?? VAT_RATE_BP_DEFAULT);
    const now = app.clock.now();
    const [row] = await tx
      .insert(invoices)
      .values({
        projectId,
        milestoneId: fields.milestoneId ?? null,
        notes: fields.notes ?? '',
        dueDate: fields.dueDate ?? null,
        ...totals,
        createdBy: who.actorId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: invoices.id });
    await writeLines(tx, row.id, priced);
    await publishChange(tx, { type: 'invoice.draft', clientId, projectId, id: row.id });
    await recordAudit(tx, who, { action: 'invoice.create', entityId: row.id, projectId, after: { milestoneId: fields.milestoneId ?? null, gross: totals.grossKobo.toString() } });
    return invoiceOut(app, tx, row.id);
  });
}

/** Corrects a draft (staff): its lines, notes or due date. */
export async function updateInvoice(app: FastifyInstance, viewer: ScopeViewer, id: string, fields: Omit<InvoiceFields, 'milestoneId'>, who: AuditContext): Promise<Invoice> {
  return app.db.transaction(async (tx) => {
    const { row, clientId } = await lockInvoice(tx, viewer, id);
    if (row.status !== 'draft') throw conflict(NOT_A_DRAFT);
    const set: Partial<typeof invoices.$inferInsert> = { updatedAt: app.clock.now() };
    if (fields.notes !== undefined) set.notes = fields.notes;
    if (fields.dueDate !== undefined) set.dueDate = fields.dueDate;
    if (fields.lines) {
      const settings = await financeSettingsOf(tx);
      const { priced, totals } = pricedLines(fields.lines, settings.vatRateBp);
      Object.assign(set, totals);
      await writeLines(tx, id, priced);
    }
    await tx.update(invoices).set(set).where(eq(invoices.id, id));
    await publishChange(tx, { type: 'invoice.draft', clientId, projectId: row.projectId, id });
    await recordAudit(tx, who, {
      action: 'invoice.update',
      entityId: id,
      projectId: row.projectId,
      before: { notes: row.notes, dueDate: row.dueDate, gross: row.grossKobo.toString() },
      after: { notes: set.notes ?? row.notes, dueDate: set.dueDate ?? row.dueDate, gross: (set.grossKobo ?? row.grossKobo).toString() },
    });
    return invoiceOut(app, tx, id);
  });
}

/** Deletes a draft (staff); an issued invoice is part of the books (409). */
export async function deleteInvoice(app: FastifyInstance, viewer: ScopeViewer, id: string, who: AuditContext): Promise<void> {
  await app.db.transaction(async (tx) => {
    const { row, clientId } = await lockInvoice(tx, viewer, id);
    if (row.status !== 'draft') throw conflict('An issued invoice is never deleted: correct it with a credit note');
    await tx.delete(invoices).where(eq(invoices.id, id));
    await publishChange(tx, { type: 'invoice.draft', clientId, projectId: row.projectId, id });
    await recordAudit(tx, who, { action: 'invoice.delete', entityId: id, projectId: row.projectId, before: { gross: row.grossKobo.toString() } });
  });
}

/** What an invoice cannot be issued without (the settings staff fill in once). */
function missingForIssue(settings: Awaited<ReturnType<typeof financeSettingsOf>>): string | null {
  if (!settings.taxId) return 'Set the company’s TIN in the finance settings before issuing invoices';
  if (!settings.bankName || !settings.bankAccountName || !settings.bankAccountNumber) return 'Set the bank details in the finance settings before issuing invoices';
  return null;
}

/**
 * Issues a draft (staff): it takes the next number of the year, today's date, its due date (the
 * draft's, or today plus the payment terms), and snapshots of the seller, the buyer and the bank;
 * from then on it never changes. The client's finance people are mailed a link (the caller delivers).
 */
export async function issueInvoice(app: FastifyInstance, viewer: ScopeViewer, id: string, who: AuditContext): Promise<{ invoice: Invoice; mailIds: string[] }> {
  return app.db.transaction(async (tx) => {
    const { row, clientId } = await lockInvoice(tx, viewer, id);
    if (row.status !== 'draft') throw conflict('This invoice is already issued');
    const settings = await financeSettingsOf(tx);
    const missing = missingForIssue(settings);
    if (missing) throw conflict(missing);
    if (row.grossKobo === 0n) throw conflict('An invoice of nothing cannot be issued');
    const today = todayIso(app.clock.now());
    const dueDate = row.dueDate ?? addDays(today, settings.paymentTermsDays);
    if (dueDate < today) throw conflict('The due date is before today: change it first');
    const [project] = await tx
      .select({ name: projects.name, organisation: clientOrganisations.name, email: users.email })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.clientId))
      .leftJoin(clientOrganisations, eq(clientOrganisations.id, projects.clientId))
      .where(eq(projects.id, row.projectId));
    const company = publishedCompany(app);
    const seller = { name: company.name, address: company.address, registrationNumber: company.registrationNumber, taxId: settings.taxId, email: company.email, phone: company.phone };
    const buyer = { name: project.organisation ?? '', email: project.email };
    const bank = { bankName: settings.bankName, accountName: settings.bankAccountName, accountNumber: settings.bankAccountNumber };
    // The number last: everything that can refuse has run (decision 298), so the counter's lock is short.
    const numbered = await allocateDocumentNumber(tx, 'invoice', today);
    const now = app.clock.now();
    await tx
      .update(invoices)
      .set({ status: 'issued', number: numbered.number, numberYear: numbered.year, numberSeq: numbered.sequence, issueDate: today, dueDate, seller, buyer, bank, issuedAt: now, issuedBy: who.actorId, updatedAt: now })
      .where(eq(invoices.id, id));
    await publishChange(tx, { type: 'invoice.issued', clientId, projectId: row.projectId, id });
    await recordAudit(tx, who, { action: 'invoice.issue', entityId: id, projectId: row.projectId, after: { number: numbered.number, gross: row.grossKobo.toString(), dueDate } });
    const mailIds: string[] = [];
    for (const person of await financePeopleOf(tx, row.projectId)) {
      mailIds.push(await queueMail(tx, app, invoiceIssuedMail(app, person, { projectId: row.projectId, projectName: project.name, invoiceId: id, number: numbered.number, grossKobo: row.grossKobo, dueDate })));
    }
    return { invoice: await invoiceOut(app, tx, id), mailIds };
  });
}

// ---------------------------------------------------------------- credit notes

/**
 * Credits an issued invoice line by line and issues the credit note at once, numbered in its own
 * series (staff). Each credit stays within what is left of its line (creditLine, decision 298).
 */
export async function issueCreditNote(
  app: FastifyInstance,
  viewer: ScopeViewer,
  invoiceId: string,
  input: { reason: string; lines: Array<{ invoiceLineId: string; amount: string }> },
  who: AuditContext,
): Promise<Invoice> {
  return app.db.transaction(async (tx) => {
    const { row, clientId } = await lockInvoice(tx, viewer, invoiceId);
    if (row.status !== 'issued') throw conflict(NOT_ISSUED);
    const ids = input.lines.map((l) => l.invoiceLineId);
    if (new Set(ids).size !== ids.length) throw badRequest('A line is credited twice: put its credit on one line');
    const lines = await tx.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoiceId)).orderBy(asc(invoiceLines.position));
    const earlier = await tx
      .select({ invoiceLineId: creditNoteLines.invoiceLineId, netKobo: creditNoteLines.netKobo, vatKobo: creditNoteLines.vatKobo })
      .from(creditNoteLines)
      .innerJoin(creditNotes, eq(creditNotes.id, creditNoteLines.creditNoteId))
      .where(and(eq(creditNotes.invoiceId, invoiceId), eq(creditNotes.status, 'issued')));
    const credited = input.lines.map((l, i) => {
      const line = lines.find((x) => x.id === l.invoiceLineId);
      if (!line) throw badRequest(`Credit line ${i + 1}: that line is not on this invoice`);
      const remaining = remainingOfLine(line, earlier.filter((e) => e.invoiceLineId === line.id));
      const result = creditLine(remaining, BigInt(l.amount), line.vatRateBp);
      if (!result.ok) throw badRequest(`Credit line ${i + 1}: ${result.message} (${formatKobo(remaining.netKobo)} left)`);
      return { line, netKobo: result.netKobo, vatKobo: result.vatKobo };
    });
    const totals = documentTotals(credited);
    const today = todayIso(app.clock.now());
    const now = app.clock.now();
    const [note] = await tx
      .insert(creditNotes)
      .values({ invoiceId, reason: input.reason, ...totals, createdBy: who.actorId, createdAt: now, updatedAt: now })
      .returning({ id: creditNotes.id });
    await tx.insert(creditNoteLines).values(
      credited.map((c, position) => ({ creditNoteId: note.id, invoiceLineId: c.line.id, position, description: c.line.description, netKobo: c.netKobo, vatKobo: c.vatKobo })),
    );
    const numbered = await allocateDocumentNumber(tx, 'credit_note', today);
    await tx
      .update(creditNotes)
      .set({ status: 'issued', number: numbered.number, numberYear: numbered.year, numberSeq: numbered.sequence, issueDate: today, issuedAt: now, issuedBy: who.actorId, updatedAt: now })
      .where(eq(creditNotes.id, note.id));
    await publishChange(tx, { type: 'invoice.updated', clientId, projectId: row.projectId, id: invoiceId });
    await recordAudit(tx, who, {
      action: 'credit-note.issue',
      entityId: note.id,
      projectId: row.projectId,
      after: { number: numbered.number, invoice: row.number, gross: totals.grossKobo.toString(), reason: input.reason },
    });
    return invoiceOut(app, tx, invoiceId);
  });
}

// ---------------------------------------------------------------- payments

export interface PaymentInput {
  invoiceId: string;
  amountKobo: bigint;
  receivedOn: string;
  method: PaymentMethod;
  reference: string;
  paystackReference: string | null;
  note: string;
  recordedBy: string | null;
}

/**
 * Inserts a payment in the caller's transaction, which holds the invoice row FOR UPDATE, and queues
 * the receipt to the client's finance people (the caller delivers after the commit): the one way a
 * payment is written, by staff or by Paystack's webhook.
 */
export async function insertPayment(app: FastifyInstance, tx: Tx, input: PaymentInput, who: AuditContext): Promise<{ paymentId: string; mailIds: string[] }> {
  const now = app.clock.now();
  const [payment] = await tx
    .insert(payments)
    .values({
      invoiceId: input.invoiceId,
      amountKobo: input.amountKobo,
      receivedOn: input.receivedOn,
      method: input.method,
      reference: input.reference,
      paystackReference: input.paystackReference,
      note: input.note,
      recordedBy: input.recordedBy,
      recordedAt: now,
    })
    .returning({ id: payments.id });
  const balance = (await invoiceBalance(tx, input.invoiceId, todayIso(now)))!;
  await publishChange(tx, { type: 'invoice.updated', clientId: balance.clientId, projectId: balance.row.projectId, id: input.invoiceId });
  await recordAudit(tx, who, {
    action: 'payment.record',
    entityId: payment.id,
    projectId: balance.row.projectId,
    after: { invoice: balance.row.number, amount: input.amountKobo.toString(), receivedOn: input.receivedOn, method: input.method, reference: input.reference },
  });
  const mailIds: string[] = [];
  for (const person of await financePeopleOf(tx, balance.row.projectId)) {
    mailIds.push(
      await queueMail(
        tx,
        app,
        receiptMail(app, person, {
          projectId: balance.row.projectId,
          projectName: balance.projectName,
          invoiceId: input.invoiceId,
          number: balance.row.number!,
          grossKobo: balance.row.grossKobo,
          dueDate: balance.row.dueDate!,
          amountKobo: input.amountKobo,
          receivedOn: input.receivedOn,
          method: input.method,
          outstandingKobo: balance.outstandingKobo,
        }),
      ),
    );
  }
  return { paymentId: payment.id, mailIds };
}

/**
 * Records a payment staff received (transfer, cheque, cash): part payments are allowed, more than
 * the outstanding amount is refused (a typing mistake is likelier than an overpayment, which staff
 * record as the outstanding amount and settle outside the invoice).
 */
export async function recordPayment(
  app: FastifyInstance,
  viewer: ScopeViewer,
  invoiceId: string,
  input: { amount: string; receivedOn: string; method: PaymentMethod; reference: string; note: string },
  who: AuditContext,
): Promise<{ invoice: Invoice; mailIds: string[] }> {
  return app.db.transaction(async (tx) => {
    const { row } = await lockInvoice(tx, viewer, invoiceId);
    if (row.status !== 'issued') throw conflict(NOT_ISSUED);
    const today = todayIso(app.clock.now());
    if (input.receivedOn > today) throw badRequest('The payment date is in the future');
    if (row.issueDate && input.receivedOn < addDays(row.issueDate, -366)) throw badRequest('The payment date is more than a year before the invoice');
    const balance = (await invoiceBalance(tx, invoiceId, today))!;
    const amountKobo = BigInt(input.amount);
    if (balance.outstandingKobo === 0n) throw conflict('This invoice has nothing outstanding');
    if (amountKobo > balance.outstandingKobo) throw conflict(`The amount is more than the ${formatKobo(balance.outstandingKobo)} outstanding`);
    const { mailIds } = await insertPayment(
      app,
      tx,
      { invoiceId, amountKobo, receivedOn: input.receivedOn, method: input.method, reference: input.reference, paystackReference: null, note: input.note, recordedBy: who.actorId },
      who,
    );
    return { invoice: await invoiceOut(app, tx, invoiceId), mailIds };
  });
}

/** Voids a payment entered by mistake (staff): kept, with who, when and why, and counting nothing. */
export async function voidPayment(app: FastifyInstance, viewer: ScopeViewer, paymentId: string, reason: string, who: AuditContext): Promise<Invoice> {
  return app.db.transaction(async (tx) => {
    const [found] = await tx.select({ invoiceId: payments.invoiceId }).from(payments).where(eq(payments.id, paymentId));
    if (!found) throw notFound('Payment not found');
    const { row, clientId } = await lockInvoice(tx, viewer, found.invoiceId);
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
    if (payment.voidedAt) throw conflict('This payment is already voided');
    await tx.update(payments).set({ voidedAt: app.clock.now(), voidedBy: who.actorId, voidReason: reason }).where(eq(payments.id, paymentId));
    await publishChange(tx, { type: 'invoice.updated', clientId, projectId: row.projectId, id: row.id });
    await recordAudit(tx, who, {
      action: 'payment.void',
      entityId: paymentId,
      projectId: row.projectId,
      before: { amount: payment.amountKobo.toString(), receivedOn: payment.receivedOn, reference: payment.reference },
      after: { voided: true, reason },
    });
    return invoiceOut(app, tx, row.id);
  });
}

// ---------------------------------------------------------------- settings

export interface SettingsInput {
  invoicePrefix: string;
  creditNotePrefix: string;
  vatRate: number;
  paymentTermsDays: number;
  taxId: string;
  bankName: string;
  bankAccountName: string;
  bankAccountNumber: string;
}

/** Saves the finance settings (staff with settings.manage); documents already issued keep theirs. */
export async function saveFinanceSettings(app: FastifyInstance, input: SettingsInput, who: AuditContext) {
  return app.db.transaction(async (tx) => {
    const before = await financeSettingsOf(tx);
    const values = {
      invoicePrefix: input.invoicePrefix,
      creditNotePrefix: input.creditNotePrefix,
      vatRateBp: input.vatRate,
      paymentTermsDays: input.paymentTermsDays,
      taxId: input.taxId,
      bankName: input.bankName,
      bankAccountName: input.bankAccountName,
      bankAccountNumber: input.bankAccountNumber,
      updatedAt: app.clock.now(),
      updatedBy: who.actorId,
    };
    await tx.insert(financeSettings).values({ id: 1, ...values }).onConflictDoUpdate({ target: financeSettings.id, set: values });
    const { updatedAt: _a, ...was } = before;
    const { updatedAt: _b, updatedBy: _c, ...now } = values;
    await recordAudit(tx, who, { action: 'finance.settings', entityId: 'finance-settings', before: was, after: now });
    return financeSettingsOf(tx);
  });
}
