import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from '../../lib/pdf-fonts.ts';
import { keepTogether, leadingHeight, PDF_COLOURS, pdfSafeText } from '../../lib/pdf-layout.ts';
import { loadPdfKit } from '../../lib/lazy-modules.ts';
import { formatKobo } from '../../../common/money.ts';
import { formatLongDay } from '../../../common/dates.ts';
import { formatBp } from '../../../common/schemas/invoices.ts';

/**
 * The documents of the payment plan (decision 298) as A4 PDFs: the invoice, the credit note and the
 * receipt of a payment. Pure renderers: everything printed arrives as plain data (the snapshots an
 * issued document keeps), amounts as bigint kobo formatted by string arithmetic; nothing here adds,
 * rounds or recomputes an amount, so the printed totals are exactly the stored ones.
 */

/** A party as printed: its name, then its lines (address, RC, TIN, e-mail, phone...) in order; empty lines are skipped. */
export interface PdfParty {
  name: string;
  lines: string[];
}

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

export interface CreditNotePdf {
  number: string;
  issueDate: string;
  invoiceNumber: string;
  invoiceIssueDate: string;
  seller: PdfParty;
  buyer: PdfParty;
  projectName: string;
  reason: string;
  lines: Array<{ description: string; netKobo: bigint; vatKobo: bigint }>;
  netKobo: bigint;
  vatKobo: bigint;
  grossKobo: bigint;
}

export interface ReceiptPdf {
  /** 'RCT-INV-2026-0001-1'. */
  receiptNumber: string;
  /** 'YYYY-MM-DD'. */
  receivedOn: string;
  amountKobo: bigint;
  /** Already a label: 'Bank transfer', 'Paystack (card, transfer or USSD)'. */
  method: string;
  /** The bank's or Paystack's reference; may be ''. */
  reference: string;
  invoiceNumber: string;
  invoiceGrossKobo: bigint;
  paidToDateKobo: bigint;
  outstandingKobo: bigint;
  seller: PdfParty;
  buyer: PdfParty;
  projectName: string;
}

type Doc = PDFKit.PDFDocument;

const MARGIN = 48;
/** The bottom margin holds the footer (a rule, the document's name and the page number). */
const BOTTOM = 64;
const { BRAND, MUTED, TEXT, RULE } = PDF_COLOURS;
const SHADE = '#f1f5f9';
const STRIPE = '#f8fafc';
const WHITE = '#ffffff';
/** Table cells: text size, inner padding. */
const CELL_SIZE = 8.5;
const CELL_PAD_X = 5;
const CELL_PAD_Y = 5;

const oneLine = (value: string) => pdfSafeText(value).replace(/\s*\n\s*/g, ' ').trim();
const block = (value: string) => pdfSafeText(value).trim();

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

interface Started {
  doc: Doc;
  done: Promise<Buffer>;
  left: number;
  width: number;
}

async function startDocument(info: { title: string; author: string; subject: string; date: string }): Promise<Started> {
  const PDFDocument = await loadPdfKit();
  const created = new Date(`${info.date.slice(0, 10)}T00:00:00Z`);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: BOTTOM },
    bufferPages: true,
    info: {
      Title: info.title,
      Author: info.author,
      Subject: info.subject,
      ...(Number.isNaN(created.getTime()) ? {} : { CreationDate: created }),
    },
  });
  withUnicodeFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  return { doc, done, left: MARGIN, width: doc.page.width - MARGIN * 2 };
}

/** The lowest y content may reach on a page (the footer lives below it). */
const contentBottom = (doc: Doc) => doc.page.height - BOTTOM;

/** The font size at which `text` fits `width` on one line: `size`, or smaller down to 5.5 pt for a very large amount. */
function fittingSize(doc: Doc, text: string, width: number, size: number, font: string): number {
  doc.font(font);
  let fit = size;
  while (fit > 5.5 && doc.fontSize(fit).widthOfString(text) > width) fit -= 0.5;
  return fit;
}

/**
 * One line that never wraps (an amount, a quantity, a number): shrunk to fit `width` where it can,
 * placed by its measured width, so even a figure wider than its column at the smallest size stays whole
 * and keeps its right edge.
 */
function oneLineText(doc: Doc, text: string, x: number, y: number, width: number, options: { size: number; font: string; color: string; align: 'left' | 'right' }) {
  const size = fittingSize(doc, text, width, options.size, options.font);
  doc.font(options.font).fontSize(size).fillColor(options.color);
  const textWidth = doc.widthOfString(text);
  const at = options.align === 'right' ? x + width - textWidth : x;
  // A smaller size sits a little lower, so its baseline stays near the full size's.
  doc.text(text, at, y + (options.size - size) * 0.9, { lineBreak: false });
}

/**
 * The top of every document: the company (name large, its lines below) on the left; the document's
 * title, number and dates on the right; a brand rule under both.
 */
function drawHeader(doc: Doc, left: number, width: number, seller: PdfParty, title: string, number: string, facts: ReadonlyArray<readonly [string, string]>) {
  const top = MARGIN;
  const leftWidth = Math.round(width * 0.55);
  const rightX = left + leftWidth + 16;
  const rightWidth = left + width - rightX;

  doc.font(BOLD_FONT).fontSize(16).fillColor(BRAND).text(oneLine(seller.name), left, top, { width: leftWidth });
  doc.moveDown(0.25);
  doc.font(BODY_FONT).fontSize(8.5).fillColor(MUTED);
  for (const line of seller.lines.map(oneLine).filter(Boolean)) doc.text(line, left, doc.y, { width: leftWidth, lineGap: 1 });
  const leftBottom = doc.y;

  doc.font(BOLD_FONT).fontSize(20).fillColor(TEXT).text(title, rightX, top - 2, { width: rightWidth, align: 'right' });
  const numberTop = doc.y + 1;
  oneLineText(doc, oneLine(number), rightX, numberTop, rightWidth, { size: 11, font: BOLD_FONT, color: BRAND, align: 'right' });
  doc.y = numberTop + 20;
  for (const [label, value] of facts) {
    const rowTop = doc.y;
    doc.font(BODY_FONT).fontSize(8.5).fillColor(MUTED).text(label, rightX, rowTop + 0.5, { width: rightWidth * 0.42, lineBreak: false });
    doc.font(BOLD_FONT).fontSize(9).fillColor(TEXT).text(value, rightX + rightWidth * 0.42, rowTop, { width: rightWidth * 0.58, align: 'right' });
    doc.y = Math.max(doc.y, rowTop + 12) + 1;
  }
  const bottom = Math.max(leftBottom, doc.y) + 10;
  doc.moveTo(left, bottom).lineTo(left + width, bottom).lineWidth(1.5).strokeColor(BRAND).stroke();
  doc.x = left;
  doc.y = bottom + 14;
}

/** A labelled block (Bill to, Project...): a small muted label, a bold main line, then plain lines. Answers its bottom. */
function drawLabelled(doc: Doc, x: number, y: number, width: number, label: string, main: string, lines: readonly string[] = []): number {
  doc.font(BOLD_FONT).fontSize(7.5).fillColor(MUTED).text(label.toUpperCase(), x, y, { width, characterSpacing: 0.6 });
  doc.moveDown(0.15);
  doc.font(BOLD_FONT).fontSize(10.5).fillColor(TEXT).text(main, x, doc.y, { width });
  doc.font(BODY_FONT).fontSize(9).fillColor(TEXT);
  for (const line of lines) doc.text(line, x, doc.y, { width, lineGap: 1 });
  return doc.y;
}

/**
 * The parties and the subject under the header: the client on the left, the right column's blocks
 * (project, milestone, the invoice credited...) stacked on the right.
 */
function drawParties(doc: Doc, left: number, width: number, buyerLabel: string, buyer: PdfParty, right: ReadonlyArray<readonly [string, string]>) {
  const top = doc.y;
  const leftWidth = Math.round(width * 0.55);
  const rightX = left + leftWidth + 16;
  const rightWidth = left + width - rightX;
  const leftBottom = drawLabelled(doc, left, top, leftWidth, buyerLabel, oneLine(buyer.name), buyer.lines.map(oneLine).filter(Boolean));
  let rightBottom = top;
  for (const [label, value] of right) rightBottom = drawLabelled(doc, rightX, rightBottom === top ? top : rightBottom + 8, rightWidth, label, value);
  doc.x = left;
  doc.y = Math.max(leftBottom, rightBottom) + 18;
}

interface Column {
  header: string;
  /** Fixed width in points; the one column without a width takes the rest. */
  width?: number;
  align: 'left' | 'right';
  /** Money and figures stay on one line (shrunk to fit); text wraps. */
  wrap?: boolean;
}

/**
 * A table whose rows continue onto further pages: a row never splits, and every page the table
 * reaches starts with a note of what continues and the column headings again.
 */
function drawTable(doc: Doc, left: number, width: number, columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, continued: string) {
  const fixed = columns.reduce((sum, c) => sum + (c.width ?? 0), 0);
  const widths = columns.map((c) => c.width ?? width - fixed);
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));

  const headerHeight = 20;
  const drawHeadings = () => {
    const top = doc.y;
    doc.rect(left, top, width, headerHeight).fill(BRAND);
    columns.forEach((c, i) => {
      oneLineText(doc, c.header, xs[i] + CELL_PAD_X, top + 6, widths[i] - CELL_PAD_X * 2, { size: 8, font: BOLD_FONT, color: WHITE, align: c.align });
    });
    doc.y = top + headerHeight;
  };
  // What a row needs: its tallest cell. A description taller than a whole page is cut (the rest stays in the portal).
  const pageRoom = contentBottom(doc) - MARGIN - 20 - headerHeight;
  const measure = (row: readonly string[]) => {
    let height = doc.font(BODY_FONT).fontSize(CELL_SIZE).currentLineHeight(true);
    row.forEach((cell, i) => {
      if (columns[i].wrap) height = Math.max(height, doc.font(BODY_FONT).fontSize(CELL_SIZE).heightOfString(cell, { width: widths[i] - CELL_PAD_X * 2, lineGap: 1 }));
    });
    return Math.min(height + CELL_PAD_Y * 2, pageRoom);
  };

  keepTogether(doc, headerHeight + (rows.length > 0 ? measure(rows[0]) : 0));
  drawHeadings();
  rows.forEach((row, r) => {
    const height = measure(row);
    if (doc.y + height > contentBottom(doc)) {
      doc.addPage();
      doc.font(BODY_FONT).fontSize(8.5).fillColor(MUTED).text(continued, left, MARGIN, { width });
      doc.y += 6;
      drawHeadings();
    }
    const top = doc.y;
    if (r % 2 === 1) doc.rect(left, top, width, height).fill(STRIPE);
    row.forEach((cell, i) => {
      const inner = widths[i] - CELL_PAD_X * 2;
      if (columns[i].wrap) {
        doc.font(BODY_FONT).fontSize(CELL_SIZE).fillColor(TEXT);
        doc.text(cell, xs[i] + CELL_PAD_X, top + CELL_PAD_Y, { width: inner, align: columns[i].align, lineGap: 1, height: height - CELL_PAD_Y * 2, ellipsis: true });
      } else {
        oneLineText(doc, cell, xs[i] + CELL_PAD_X, top + CELL_PAD_Y, inner, { size: CELL_SIZE, font: BODY_FONT, color: TEXT, align: columns[i].align });
      }
    });
    doc.moveTo(left, top + height).lineTo(left + width, top + height).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.y = top + height;
  });
  doc.x = left;
  doc.y += 10;
}

/** The totals at the right under the table: label and amount per row, the last one bold under a brand rule. */
function drawTotals(doc: Doc, left: number, width: number, rows: ReadonlyArray<readonly [string, string]>) {
  const boxWidth = 250;
  const x = left + width - boxWidth;
  const labelWidth = 120;
  const rowHeight = 17;
  keepTogether(doc, rowHeight * rows.length + 12);
  rows.forEach(([label, value], i) => {
    const last = i === rows.length - 1;
    let top = doc.y;
    if (last) {
      top += 3;
      doc.moveTo(x, top).lineTo(x + boxWidth, top).lineWidth(1.2).strokeColor(BRAND).stroke();
      top += 5;
    }
    const size = last ? 11 : 9.5;
    const font = last ? BOLD_FONT : BODY_FONT;
    doc.font(font).fontSize(size).fillColor(last ? TEXT : MUTED).text(label, x + CELL_PAD_X, top, { width: labelWidth - CELL_PAD_X, lineBreak: false });
    // Amounts end where the table's amounts end, one cell padding inside the rule.
    const valueWidth = boxWidth - labelWidth - CELL_PAD_X;
    oneLineText(doc, value, x + labelWidth, top, valueWidth, { size, font, color: last ? BRAND : TEXT, align: 'right' });
    doc.y = top + (last ? rowHeight + 2 : rowHeight);
  });
  doc.x = left;
  doc.y += 14;
}

/** A heading and a free text under it (notes, reason), kept together with its first lines; the text may run onto the next page. */
function drawParagraph(doc: Doc, left: number, width: number, heading: string, text: string) {
  doc.font(BODY_FONT).fontSize(9.5);
  keepTogether(doc, 16 + leadingHeight(doc, text, { width, lineGap: 1.5 }));
  doc.font(BOLD_FONT).fontSize(7.5).fillColor(MUTED).text(heading.toUpperCase(), left, doc.y, { width, characterSpacing: 0.6 });
  doc.moveDown(0.2);
  doc.font(BODY_FONT).fontSize(9.5).fillColor(TEXT).text(text, left, doc.y, { width, lineGap: 1.5 });
  doc.x = left;
  doc.moveDown(1);
}

interface BoxLine {
  label?: string;
  text: string;
  bold?: boolean;
}

/** A shaded box with a title and lines (label and value, or a sentence), kept on one page. */
function drawBox(doc: Doc, left: number, width: number, title: string, lines: readonly BoxLine[]) {
  const pad = 12;
  const labelWidth = 100;
  const inner = width - pad * 2;
  const lineGap = 1;
  const heightOf = (line: BoxLine) => {
    doc.font(line.bold || line.label ? BOLD_FONT : BODY_FONT).fontSize(9.5);
    return doc.heightOfString(line.text, { width: line.label ? inner - labelWidth : inner, lineGap }) + 3;
  };
  const titleHeight = 18;
  const height = pad * 2 + titleHeight + lines.reduce((sum, line) => sum + heightOf(line), 0);
  keepTogether(doc, height);
  const top = doc.y;
  doc.rect(left, top, width, height).fill(SHADE);
  doc.rect(left, top, 3, height).fill(BRAND);
  doc.font(BOLD_FONT).fontSize(10.5).fillColor(BRAND).text(title, left + pad, top + pad, { width: inner });
  let y = top + pad + titleHeight;
  for (const line of lines) {
    const h = heightOf(line);
    if (line.label) {
      doc.font(BODY_FONT).fontSize(9).fillColor(MUTED).text(line.label, left + pad, y + 0.5, { width: labelWidth - 6, lineBreak: false });
      doc.font(BOLD_FONT).fontSize(9.5).fillColor(TEXT).text(line.text, left + pad + labelWidth, y, { width: inner - labelWidth, lineGap });
    } else {
      doc.font(line.bold ? BOLD_FONT : BODY_FONT).fontSize(9.5).fillColor(TEXT).text(line.text, left + pad, y, { width: inner, lineGap });
    }
    y += h;
  }
  doc.x = left;
  doc.y = top + height + 16;
}

/** Label and value rows (the receipt's facts), the value in a column of its own. */
function drawFacts(doc: Doc, left: number, width: number, facts: ReadonlyArray<readonly [string, string, boolean?]>) {
  const labelWidth = 190;
  for (const [label, value, strong] of facts) {
    doc.font(BOLD_FONT).fontSize(10);
    keepTogether(doc, doc.heightOfString(value, { width: width - labelWidth }) + 8);
    const top = doc.y;
    doc.font(BODY_FONT).fontSize(9.5).fillColor(MUTED).text(label, left, top + 0.5, { width: labelWidth - 10 });
    const labelBottom = doc.y;
    doc.font(strong ? BOLD_FONT : BODY_FONT).fontSize(10).fillColor(TEXT).text(value, left + labelWidth, top, { width: width - labelWidth });
    const bottom = Math.max(doc.y, labelBottom) + 4;
    doc.moveTo(left, bottom).lineTo(left + width, bottom).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.y = bottom + 5;
  }
  doc.x = left;
  doc.moveDown(0.8);
}

/** The footer of every page: a rule, who issued which document, 'Page x of y'. Then the document ends. */
function finish(doc: Doc, left: number, width: number, footer: string) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would start a new page: the margin is lifted while the footer is drawn.
    const bottomMargin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - BOTTOM + 22;
    doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.5).strokeColor(RULE).stroke();
    const page = `Page ${i - range.start + 1} of ${range.count}`;
    doc.font(BODY_FONT).fontSize(7.5).fillColor(MUTED);
    const pageWidth = doc.widthOfString(page) + 4;
    doc.text(footer, left, y + 6, { width: width - pageWidth - 12, lineBreak: false, ellipsis: true, height: 10 });
    doc.text(page, left + width - pageWidth, y + 6, { width: pageWidth, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottomMargin;
  }
  doc.end();
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

/** A credit note: which invoice it credits and why, the lines credited, the amounts credited. */
export async function renderCreditNotePdf(input: CreditNotePdf): Promise<Buffer> {
  const number = oneLine(input.number);
  const invoice = oneLine(input.invoiceNumber);
  const seller = oneLine(input.seller.name);
  const { doc, done, left, width } = await startDocument({ title: `Credit note ${number}`, author: seller, subject: `Credit note ${number} on invoice ${invoice}`, date: input.issueDate });
  const invoiceDate = formatLongDay(input.invoiceIssueDate);
  drawHeader(doc, left, width, input.seller, 'CREDIT NOTE', number, [
    ['Issue date', formatLongDay(input.issueDate)],
    ['Invoice', invoice],
    ['Invoice date', invoiceDate],
  ]);
  drawParties(doc, left, width, 'Credit to', input.buyer, [['Project', oneLine(input.projectName) || '-']]);
  doc.font(BOLD_FONT).fontSize(11).fillColor(BRAND).text(`Credits invoice ${invoice} issued ${invoiceDate}.`, left, doc.y, { width });
  doc.moveDown(0.9);

  drawParagraph(doc, left, width, 'Reason', block(input.reason) || '-');

  drawTable(
    doc,
    left,
    width,
    [
      { header: 'Description', align: 'left', wrap: true },
      { header: 'Net credited', width: 100, align: 'right' },
      { header: 'VAT credited', width: 100, align: 'right' },
    ],
    input.lines.map((line) => [block(line.description) || '-', formatKobo(line.netKobo), formatKobo(line.vatKobo)]),
    `Credit note ${number} (continued)`,
  );
  drawTotals(doc, left, width, [
    ['Net credited', formatKobo(input.netKobo)],
    ['VAT credited', formatKobo(input.vatKobo)],
    ['Total credited', formatKobo(input.grossKobo)],
  ]);

  doc.font(BODY_FONT).fontSize(9.5);
  const closing = `This credit note reduces the amount payable on invoice ${invoice} by ${formatKobo(input.grossKobo)}, VAT included.`;
  keepTogether(doc, doc.heightOfString(closing, { width }));
  doc.fillColor(TEXT).text(closing, left, doc.y, { width });

  finish(doc, left, width, `${seller} · Credit note ${number} · Credits invoice ${invoice}`);
  return done;
}

/** A receipt for one payment: the amount received, how, against which invoice, and what is left to pay. */
export async function renderReceiptPdf(input: ReceiptPdf): Promise<Buffer> {
  const number = oneLine(input.receiptNumber);
  const invoice = oneLine(input.invoiceNumber);
  const seller = oneLine(input.seller.name);
  const { doc, done, left, width } = await startDocument({ title: `Receipt ${number}`, author: seller, subject: `Receipt ${number} for a payment on invoice ${invoice}`, date: input.receivedOn });
  const receivedOn = formatLongDay(input.receivedOn);
  drawHeader(doc, left, width, input.seller, 'RECEIPT', number, [
    ['Received on', receivedOn],
    ['Invoice', invoice],
  ]);
  drawParties(doc, left, width, 'Received from', input.buyer, [['Project', oneLine(input.projectName) || '-']]);

  // The amount, large, in a shaded band.
  const amount = formatKobo(input.amountKobo);
  const bandTop = doc.y;
  const bandHeight = 74;
  doc.rect(left, bandTop, width, bandHeight).fill(SHADE);
  doc.rect(left, bandTop, 3, bandHeight).fill(BRAND);
  doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text('Received with thanks', left + 16, bandTop + 14, { width: width - 32 });
  oneLineText(doc, amount, left + 16, bandTop + 32, width - 32, { size: 26, font: BOLD_FONT, color: BRAND, align: 'left' });
  doc.x = left;
  doc.y = bandTop + bandHeight + 18;

  const outstanding = input.outstandingKobo <= 0n ? 'Paid in full' : formatKobo(input.outstandingKobo);
  const facts: Array<[string, string, boolean?]> = [['Payment method', oneLine(input.method) || '-']];
  const reference = oneLine(input.reference);
  if (reference) facts.push(['Reference', reference]);
  facts.push(
    ['Against invoice', invoice, true],
    ['Invoice total', formatKobo(input.invoiceGrossKobo)],
    ['Paid to date, this payment included', formatKobo(input.paidToDateKobo)],
    ['Outstanding after this payment', outstanding, true],
  );
  drawFacts(doc, left, width, facts);

  doc.font(BODY_FONT).fontSize(8.5);
  const closing = `This receipt confirms that the amount above was received. It is not a tax invoice: the VAT is shown on invoice ${invoice}.`;
  keepTogether(doc, doc.heightOfString(closing, { width }));
  doc.fillColor(MUTED).text(closing, left, doc.y, { width });

  finish(doc, left, width, `${seller} · Receipt ${number} · Invoice ${invoice}`);
  return done;
}
