import { BODY_FONT, BOLD_FONT } from '../../lib/pdf-fonts.ts';
import { keepTogether, leadingHeight, PDF_COLOURS } from '../../lib/pdf-layout.ts';
import { contentBottom, MARGIN, oneLineText, type Doc } from './finance-pdf-page.ts';

// The blocks the body of a finance document is made of (finance-pdf-page.ts draws its page): a table
// of lines that runs onto further pages, the totals, a paragraph, a shaded box, a column of facts.

const { BRAND, MUTED, TEXT, RULE } = PDF_COLOURS;
export const SHADE = '#f1f5f9';
const STRIPE = '#f8fafc';
const WHITE = '#ffffff';
/** Table cells: text size, inner padding. */
const CELL_SIZE = 8.5;
const CELL_PAD_X = 5;
const CELL_PAD_Y = 5;

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
export function drawTable(doc: Doc, left: number, width: number, columns: readonly Column[], rows: ReadonlyArray<readonly string[]>, continued: string) {
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
export function drawTotals(doc: Doc, left: number, width: number, rows: ReadonlyArray<readonly [string, string]>) {
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
export function drawParagraph(doc: Doc, left: number, width: number, heading: string, text: string) {
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
export function drawBox(doc: Doc, left: number, width: number, title: string, lines: readonly BoxLine[]) {
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
export function drawFacts(doc: Doc, left: number, width: number, facts: ReadonlyArray<readonly [string, string, boolean?]>) {
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

