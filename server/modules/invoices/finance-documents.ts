import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../../common/errors.ts';
import { todayIso } from '../../../common/dates.ts';
import { PAYMENT_METHOD_LABELS } from '../../../common/schemas/invoices.ts';
import { creditNoteLines, creditNotes, invoiceLines, invoices, paymentMilestones, payments } from '../../db/schema/payments.ts';
import { projects } from '../../db/schema/projects.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { renderCreditNotePdf } from './credit-note-pdf.ts';
import type { PdfParty } from './finance-pdf-page.ts';
import { invoiceBalance } from './finance-read.ts';
import { visibleInvoice } from './invoice-access.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { renderReceiptPdf } from './receipt-pdf.ts';

// The PDFs people receive (issue 26): drawn from the snapshots an issued document keeps (seller,
// buyer, bank as they were at issue), so a document reads the same whenever it is downloaded.

type Snapshot = Record<string, string> | null;

const seller = (s: Snapshot): PdfParty => ({
  name: s?.name ?? '',
  lines: [s?.address ?? '', s?.registrationNumber ?? '', s?.taxId ? `TIN ${s.taxId}` : '', s?.email ?? '', s?.phone ?? ''],
});
const buyer = (s: Snapshot): PdfParty => ({ name: s?.name ?? '', lines: [s?.email ?? ''] });

/** An issued invoice's PDF for a viewer who may see it (a draft has none: 404). */
export async function invoicePdf(app: FastifyInstance, viewer: ScopeViewer, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const { row, projectName } = await visibleInvoice(app.db, viewer, id);
  if (row.status !== 'issued') throw notFound('A draft invoice has no PDF yet: issue it first');
  const [lines, milestone] = await Promise.all([
    app.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, id)).orderBy(asc(invoiceLines.position)),
    row.milestoneId ? app.db.select({ name: paymentMilestones.name }).from(paymentMilestones).where(eq(paymentMilestones.id, row.milestoneId)) : Promise.resolve([]),
  ]);
  const pdf = await renderInvoicePdf({
    number: row.number!,
    issueDate: row.issueDate!,
    dueDate: row.dueDate!,
    seller: seller(row.seller),
    buyer: buyer(row.buyer),
    projectName,
    milestoneName: milestone[0]?.name ?? null,
    lines: lines.map((l) => ({ description: l.description, quantity: l.quantity, unitPriceKobo: l.unitPriceKobo, vatRateBp: l.vatRateBp, netKobo: l.netKobo, vatKobo: l.vatKobo })),
    netKobo: row.netKobo,
    vatKobo: row.vatKobo,
    grossKobo: row.grossKobo,
    bank: { bankName: row.bank?.bankName ?? '', accountName: row.bank?.accountName ?? '', accountNumber: row.bank?.accountNumber ?? '' },
    notes: row.notes,
  });
  return { fileName: `invoice-${row.number}.pdf`, pdf };
}

/** An issued credit note's PDF, for a viewer who may see its invoice. */
export async function creditNotePdf(app: FastifyInstance, viewer: ScopeViewer, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const [found] = await app.db
    .select({ note: creditNotes, invoice: invoices, projectName: projects.name })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(creditNotes.id, id), eq(creditNotes.status, 'issued'), projectScope(viewer)));
  if (!found) throw notFound('Credit note not found');
  const { note, invoice } = found;
  const lines = await app.db.select().from(creditNoteLines).where(eq(creditNoteLines.creditNoteId, id)).orderBy(asc(creditNoteLines.position));
  const pdf = await renderCreditNotePdf({
    number: note.number!,
    issueDate: note.issueDate!,
    invoiceNumber: invoice.number!,
    invoiceIssueDate: invoice.issueDate!,
    seller: seller(invoice.seller),
    buyer: buyer(invoice.buyer),
    projectName: found.projectName,
    reason: note.reason,
    lines: lines.map((l) => ({ description: l.description, netKobo: l.netKobo, vatKobo: l.vatKobo })),
    netKobo: note.netKobo,
    vatKobo: note.vatKobo,
    grossKobo: note.grossKobo,
  });
  return { fileName: `credit-note-${note.number}.pdf`, pdf };
}

/**
 * A payment's receipt, for a viewer who may see its invoice: what was paid to date and outstanding
 * counts the payments recorded up to this one (not those after), so a receipt reads the same later.
 */
export async function receiptPdf(app: FastifyInstance, viewer: ScopeViewer, paymentId: string): Promise<{ fileName: string; pdf: Buffer }> {
  const [found] = await app.db
    .select({ payment: payments, invoice: invoices, projectName: projects.name })
    .from(payments)
    .innerJoin(invoices, eq(invoices.id, payments.invoiceId))
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(payments.id, paymentId), projectScope(viewer)));
  if (!found) throw notFound('Payment not found');
  const { payment, invoice } = found;
  if (payment.voidedAt) throw conflict('This payment was voided: it has no receipt');
  const balance = (await invoiceBalance(app.db, invoice.id, todayIso(app.clock.now())))!;
  // Numbered by its place among all the invoice's payments (voided ones keep their numbers, so a
  // receipt's number never changes); paid to date counts those not voided up to it, capped at the payable.
  const all = await app.db.select().from(payments).where(eq(payments.invoiceId, invoice.id));
  const upTo = all.filter((p) => p.recordedAt < payment.recordedAt || (p.recordedAt.getTime() === payment.recordedAt.getTime() && p.id <= payment.id));
  const sequence = upTo.length;
  const before = upTo.filter((p) => !p.voidedAt).reduce((s, p) => s + p.amountKobo, 0n);
  const payable = invoice.grossKobo - balance.creditedKobo;
  const paidToDate = before < payable ? before : payable;
  const pdf = await renderReceiptPdf({
    receiptNumber: `RCT-${invoice.number}-${sequence}`,
    receivedOn: payment.receivedOn,
    amountKobo: payment.amountKobo,
    method: PAYMENT_METHOD_LABELS[payment.method],
    reference: payment.reference,
    invoiceNumber: invoice.number!,
    invoiceGrossKobo: invoice.grossKobo,
    paidToDateKobo: paidToDate,
    outstandingKobo: payable - paidToDate,
    seller: seller(invoice.seller),
    buyer: buyer(invoice.buyer),
    projectName: found.projectName,
  });
  return { fileName: `receipt-${invoice.number}-${sequence}.pdf`, pdf };
}
