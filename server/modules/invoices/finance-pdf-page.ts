import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from '../../lib/pdf-fonts.ts';
import { PDF_COLOURS, pdfSafeText } from '../../lib/pdf-layout.ts';
import { loadPdfKit } from '../../lib/lazy-modules.ts';

/**
 * The page of the payment plan's documents (decision 298): the invoice (invoice-pdf.ts), the credit
 * note (credit-note-pdf.ts) and the receipt (receipt-pdf.ts) start an A4 document here, draw their
 * header and parties here, and finish with its footer here; their body is drawn by the blocks of
 * finance-pdf-blocks.ts.
 */

/** A party as printed: its name, then its lines (address, RC, TIN, e-mail, phone...) in order; empty lines are skipped. */
export interface PdfParty {
  name: string;
  lines: string[];
}

export type Doc = PDFKit.PDFDocument;

export const MARGIN = 48;
/** The bottom margin holds the footer (a rule, the document's name and the page number). */
const BOTTOM = 64;
const { BRAND, MUTED, TEXT, RULE } = PDF_COLOURS;

/** User text as the PDF prints it: on one line (a name, a number), or as a block (a description, notes). */
export const oneLine = (value: string) => pdfSafeText(value).replace(/\s*\n\s*/g, ' ').trim();
export const block = (value: string) => pdfSafeText(value).trim();

interface Started {
  doc: Doc;
  done: Promise<Buffer>;
  left: number;
  width: number;
}

export async function startDocument(info: { title: string; author: string; subject: string; date: string }): Promise<Started> {
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
export const contentBottom = (doc: Doc) => doc.page.height - BOTTOM;

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
export function oneLineText(doc: Doc, text: string, x: number, y: number, width: number, options: { size: number; font: string; color: string; align: 'left' | 'right' }) {
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
export function drawHeader(doc: Doc, left: number, width: number, seller: PdfParty, title: string, number: string, facts: ReadonlyArray<readonly [string, string]>) {
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
export function drawParties(doc: Doc, left: number, width: number, buyerLabel: string, buyer: PdfParty, right: ReadonlyArray<readonly [string, string]>) {
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

/** The footer of every page: a rule, who issued which document, 'Page x of y'. Then the document ends. */
export function finish(doc: Doc, left: number, width: number, footer: string) {
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
