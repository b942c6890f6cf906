import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from '../../lib/pdf-fonts.ts';
import { keepTogether, leadingHeight, PDF_COLOURS, pdfSafeText } from '../../lib/pdf-layout.ts';
import { loadPdfKit } from '../../lib/lazy-modules.ts';
import type { PublishedCompany } from '../site-content/published-company.ts';
import { formatDateTimeWithZone, formatDay } from '../../../common/dates.ts';
import { REPORT_SECTIONS, type Report } from '../../../common/schemas/reports.ts';

export interface PdfImage {
  name: string;
  data: Buffer;
  width: number;
  height: number;
}

const MARGIN = 50;
const { BRAND, MUTED, TEXT } = PDF_COLOURS;
/** Images stand two to a row; each fits a box of half the text width by this height (a 4:3 photo fills it). */
const IMAGES_PER_ROW = 2;
const COLUMN_GAP = 16;
const IMAGE_BOX_HEIGHT = 180;
const CAPTION_SIZE = 9;
const CAPTION_MAX_LINES = 2;
const ROW_GAP = 14;

/**
 * The report as a PDF: header, the report's fields, then its images. The document is returned as a
 * stream that is already complete, so the caller can pipe it to the response.
 */
export async function renderReportPdf(company: PublishedCompany, report: Report, images: readonly PdfImage[]): Promise<PDFKit.PDFDocument> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: pdfSafeText(`Progress report: ${report.project} (${report.date})`),
      Author: company.name,
      Subject: 'Project progress report',
      CreationDate: new Date(report.createdAt),
      ...(report.correctedAt ? { ModDate: new Date(report.correctedAt) } : {}),
    },
  });
  withUnicodeFonts(doc);
  const contentWidth = doc.page.width - MARGIN * 2;

  doc.fillColor(BRAND).font(BOLD_FONT).fontSize(11).text(company.name);
  doc.moveDown(0.4);
  doc.fillColor(TEXT).fontSize(20).text('Progress Report');
  doc.moveDown(0.6);

  const facts: [string, string][] = [
    ['Project', report.project],
    ['Project code', report.projectCode || '-'],
    ['Date', formatDay(report.date)],
    ['Team', report.team],
    // The one instant of the report, in Lagos time with the zone named (issue 22).
    ['Added', formatDateTimeWithZone(report.createdAt)],
    // A corrected report says so, so a printed copy can be told from the one first sent.
    ...(report.correctedAt ? ([['Corrected on', formatDateTimeWithZone(report.correctedAt)]] as [string, string][]) : []),
  ];
  for (const [label, value] of facts) {
    doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text(`${label}: `, { continued: true });
    // One line each: a stray line break in a single-line field is drawn as a space.
    doc.font(BODY_FONT).fillColor(TEXT).text(pdfSafeText(value).replace(/\s*\n\s*/g, ' '));
  }
  doc.moveDown(0.5);
  doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + contentWidth, doc.y).strokeColor('#cbd5e1').stroke();
  doc.moveDown(0.8);

  for (const section of REPORT_SECTIONS) {
    const body = pdfSafeText(report[section.key]).trim();
    if (!body) continue;
    const bodyOptions = { width: contentWidth, lineGap: 2 };
    const bodyLead = leadingHeight(doc.font(BODY_FONT).fontSize(10.5), body, bodyOptions);
    // A heading never ends a page: it moves on with the first lines of its text.
    keepTogether(doc, headingBlockHeight(doc) + bodyLead);
    heading(doc, section.label, contentWidth);
    doc.font(BODY_FONT).fontSize(10.5).fillColor(TEXT).text(body, MARGIN, doc.y, bodyOptions);
    doc.moveDown(0.8);
  }

  if (images.length > 0) drawImages(doc, images, contentWidth);

  doc.end();
  return doc;
}

/** The height a section heading takes with the space under it. */
function headingBlockHeight(doc: PDFKit.PDFDocument): number {
  return doc.font(BOLD_FONT).fontSize(13).currentLineHeight(true) * 1.2;
}

function heading(doc: PDFKit.PDFDocument, label: string, width: number): void {
  doc.font(BOLD_FONT).fontSize(13).fillColor(BRAND).text(label, MARGIN, doc.y, { width });
  doc.moveDown(0.2);
}

interface Cell {
  image: PdfImage;
  caption: string;
  width: number;
  height: number;
}

/** The images in rows of two, each scaled into its box and named underneath; a row never splits across pages. */
function drawImages(doc: PDFKit.PDFDocument, images: readonly PdfImage[], contentWidth: number): void {
  const columnWidth = (contentWidth - COLUMN_GAP * (IMAGES_PER_ROW - 1)) / IMAGES_PER_ROW;
  doc.font(BODY_FONT).fontSize(CAPTION_SIZE);
  const captionLine = doc.currentLineHeight(true);
  const cells: Cell[] = images.map((image) => {
    const scale = Math.min(columnWidth / image.width, IMAGE_BOX_HEIGHT / image.height);
    return { image, caption: pdfSafeText(image.name).replace(/\n/g, ' '), width: image.width * scale, height: image.height * scale };
  });
  const rows: Cell[][] = [];
  for (let i = 0; i < cells.length; i += IMAGES_PER_ROW) rows.push(cells.slice(i, i + IMAGES_PER_ROW));

  const captionOptions = { width: columnWidth, align: 'center' as const };
  const rowHeight = (row: Cell[]) => {
    doc.font(BODY_FONT).fontSize(CAPTION_SIZE);
    const captionHeight = Math.max(...row.map((c) => Math.min(doc.heightOfString(c.caption, captionOptions), captionLine * CAPTION_MAX_LINES)));
    return Math.max(...row.map((c) => c.height)) + 4 + captionHeight;
  };

  doc.moveDown(0.2);
  // The heading moves on with the first row of images.
  keepTogether(doc, headingBlockHeight(doc) + rowHeight(rows[0]));
  heading(doc, 'Images', contentWidth);
  doc.moveDown(0.2);
  for (const row of rows) {
    keepTogether(doc, rowHeight(row));
    const top = doc.y;
    const imagesHeight = Math.max(...row.map((c) => c.height));
    let bottom = top;
    row.forEach((cell, column) => {
      const left = MARGIN + column * (columnWidth + COLUMN_GAP);
      // Bottom-aligned in the row, so every caption of the row sits on one line, right under its image.
      doc.image(cell.image.data, left + (columnWidth - cell.width) / 2, top + imagesHeight - cell.height, { width: cell.width, height: cell.height });
      doc.font(BODY_FONT).fontSize(CAPTION_SIZE).fillColor(MUTED);
      doc.text(cell.caption, left, top + imagesHeight + 4, { ...captionOptions, height: captionLine * CAPTION_MAX_LINES, ellipsis: true });
      bottom = Math.max(bottom, doc.y);
    });
    doc.x = MARGIN;
    doc.y = bottom + ROW_GAP;
  }
}
