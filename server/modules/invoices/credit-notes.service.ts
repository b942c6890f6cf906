import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict } from '../../../common/errors.ts';
import { todayIso } from '../../../common/dates.ts';
import { creditLine, documentTotals, remainingOfLine } from '../../../common/invoice-math.ts';
import { formatKobo } from '../../../common/money.ts';
import type { Invoice } from '../../../common/schemas/invoices.ts';
import { creditNoteLines, creditNotes, invoiceLines } from '../../db/schema/payments.ts';
import { publishChange } from '../../events/portal-events.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { allocateDocumentNumber } from './document-numbers.ts';
import { invoiceOut, lockInvoice, NOT_ISSUED } from './invoice-access.ts';

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
