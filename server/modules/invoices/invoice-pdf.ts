import { formatKobo } from '../../../common/money.ts';
import { formatLongDay } from '../../../common/dates.ts';
import { formatBp } from '../../../common/schemas/invoices.ts';
import { drawBox, drawParagraph, drawTable, drawTotals } from './finance-pdf-blocks.ts';
import { block, drawHeader, drawParties, finish, oneLine, startDocument, type PdfParty } from './finance-pdf-page.ts';

/**
 * The invoice of the payment plan (decision 298) as an A4 PDF; the credit note (credit-note-pdf.ts)
 * and the receipt of a payment (receipt-pdf.ts) are drawn the same way. Pure renderers: everything printed arrives as plain data (the snapshots an
 * issued document keeps), amounts as bigint kobo formatted by string arithmetic; nothing here adds,
 * rounds or recomputes an amount, so the printed totals are exactly the stored ones.
 */

export interface InvoicePdf {
  /** 'INV-2026-0001'. */
  number: string;
  /** 'YYYY-MM-DD'. */
  issueDate: string;
  /** 'YYYY-MM-DD'. */
  dueDate: string;
  /** The company. */
  seller: PdfParty;
  /** The client organisation. */
  buyer: PdfParty;
  projectName: string;
  milestoneName: string | null;
  lines: Array<{ description: string; quantity: number; unitPriceKobo: bigint; vatRateBp: number; netKobo: bigint; vatKobo: bigint }>;
  netKobo: bigint;
  vatKobo: bigint;
  grossKobo: bigint;
  bank: { bankName: string; accountName: string; accountNumber: string };
  /** May be ''. */
  notes: string;
}

/** A rate in basis points as the document prints it: 750 → '7.5%', 0 → 'Exempt' (formatBp without its space). */
const vatRateLabel = (bp: number): string => (bp === 0 ? 'Exempt' : formatBp(bp).replace(' %', '%'));

/** A whole quantity with thousands separators: 1200 → '1,200'. */
const quantityLabel = (quantity: number) => String(quantity).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Whole days from one calendar day to another (both 'YYYY-MM-DD'); null when either is unreadable. */
function daysBetween(from: string, to: string): number | null {
  const a = Date.parse(`${from.slice(0, 10)}T00:00:00Z`);
  const b = Date.parse(`${to.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(a) || Number.isNaN(b) ? null : Math.round((b - a) / 86_400_000);
}

/** An invoice: header, client, project and milestone, lines, totals, how to pay, notes. */
export async function renderInvoicePdf(input: InvoicePdf): Promise<Buffer> {
  const number = oneLine(input.number);
  const seller = oneLine(input.seller.name);
  const { doc, done, left, width } = await startDocument({ title: `Invoice ${number}`, author: seller, subject: `Invoice ${number}: ${oneLine(input.projectName)}`, date: input.issueDate });
  const due = formatLongDay(input.dueDate);
  drawHeader(doc, left, width, input.seller, 'INVOICE', number, [
    ['Issue date', formatLongDay(input.issueDate)],
    ['Due date', due],
  ]);
  const subject: Array<[string, string]> = [['Project', oneLine(input.projectName) || '-']];
  const milestone = input.milestoneName === null ? '' : oneLine(input.milestoneName);
  if (milestone) subject.push(['Milestone', milestone]);
  drawParties(doc, left, width, 'Bill to', input.buyer, subject);

  drawTable(
    doc,
    left,
    width,
    [
      { header: 'Description', align: 'left', wrap: true },
      { header: 'Qty', width: 40, align: 'right' },
      { header: 'Unit price', width: 82, align: 'right' },
      { header: 'VAT rate', width: 52, align: 'right' },
      { header: 'Net', width: 86, align: 'right' },
      { header: 'VAT', width: 76, align: 'right' },
    ],
    input.lines.map((line) => [
      block(line.description) || '-',
      quantityLabel(line.quantity),
      formatKobo(line.unitPriceKobo),
      vatRateLabel(line.vatRateBp),
      formatKobo(line.netKobo),
      formatKobo(line.vatKobo),
    ]),
    `Invoice ${number} (continued)`,
  );

  // One rate on every line is named on the VAT total; mixed rates are on the lines above.
  const rates = [...new Set(input.lines.map((line) => line.vatRateBp))];
  const vatLabel = rates.length === 1 && rates[0] !== 0 ? `VAT at ${vatRateLabel(rates[0])}` : 'VAT';
  drawTotals(doc, left, width, [
    ['Subtotal', formatKobo(input.netKobo)],
    [vatLabel, formatKobo(input.vatKobo)],
    ['Total due', formatKobo(input.grossKobo)],
  ]);

  const days = daysBetween(input.issueDate, input.dueDate);
  const terms = days === null || days <= 0 ? `Payment is due on receipt, by ${due}.` : `Payment terms: ${days} days. Please pay the total by ${due}.`;
  drawBox(doc, left, width, 'How to pay', [
    { label: 'Bank', text: oneLine(input.bank.bankName) || '-' },
    { label: 'Account name', text: oneLine(input.bank.accountName) || '-' },
    { label: 'Account number', text: oneLine(input.bank.accountNumber) || '-' },
    { text: `Quote ${number} as the payment reference.`, bold: true },
    { text: terms },
  ]);

  const notes = block(input.notes);
  if (notes) drawParagraph(doc, left, width, 'Notes', notes);

  finish(doc, left, width, `${seller} · Invoice ${number} · Issued ${formatLongDay(input.issueDate)}`);
  return done;
}
