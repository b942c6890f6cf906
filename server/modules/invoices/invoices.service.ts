import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict } from '../../../common/errors.ts';
import { documentTotals, lineAmounts, VAT_RATE_BP_DEFAULT } from '../../../common/invoice-math.ts';
import { KOBO_MAX } from '../../../common/money.ts';
import type { Invoice } from '../../../common/schemas/invoices.ts';
import { projects } from '../../db/schema/projects.ts';
import { invoiceLines, invoices } from '../../db/schema/payments.ts';
import { publishChange } from '../../events/portal-events.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { financeSettingsOf, milestoneRowsOf, resolveMilestones } from './finance-read.ts';
import { invoiceOut, lockInvoice, type Tx } from './invoice-access.ts';

// Draft invoices (issue 26, decision 298): created, corrected and deleted until they are issued
// (invoice-issue.service.ts); each write locks its invoice first (invoice-access.ts).

const NOT_A_DRAFT = 'This invoice is issued and never changes: correct it with a credit note';

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
