import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from '../../lib/pdf-fonts.ts';
import { loadPdfKit } from '../../lib/lazy-modules.ts';
import { company } from '../../../common/content/company.ts';
import { REPORT_SECTIONS, type Report } from '../../../common/schemas/reports.ts';

export interface PdfImage {
  name: string;
  data: Buffer;
  width: number;
  height: number;
}

const MARGIN = 50;
const BRAND = '#083b6d';
const MUTED = '#475569';
const IMAGE_MAX_HEIGHT = 360;

/**
 * The report as a PDF: header, the report's fields, then its images. The document is returned as a
 * stream that is already complete, so the caller can pipe it to the response.
 */
export async function renderReportPdf(report: Report, images: readonly PdfImage[]): Promise<PDFKit.PDFDocument> {
  const PDFDocument = await loadPdfKit();
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Progress report: ${report.project} (${report.date})`,
      Author: company.name,
      Subject: 'Project progress report',
      CreationDate: new Date(report.createdAt),
    },
  });
  withUnicodeFonts(doc);
  const contentWidth = doc.page.width - MARGIN * 2;

  doc.fillColor(BRAND).font(BOLD_FONT).fontSize(11).text(company.name);
  doc.moveDown(0.4);
  doc.fillColor('#0f172a').fontSize(20).text('Progress Report');
  doc.moveDown(0.6);

  const facts: [string, string][] = [
    ['Project', report.project],
    ['Project code', report.projectCode || '-'],
    ['Date', report.date],
    ['Team', report.team],
  ];
  for (const [label, value] of facts) {
    doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text(`${label}: `, { continued: true });
    doc.font(BODY_FONT).fillColor('#0f172a').text(value);
  }
  doc.moveDown(0.5);
  doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + contentWidth, doc.y).strokeColor('#cbd5e1').stroke();
  doc.moveDown(0.8);

  for (const section of REPORT_SECTIONS) {
    const body = report[section.key];
    if (!body) continue;
    doc.font(BOLD_FONT).fontSize(13).fillColor(BRAND).text(section.label);
    doc.moveDown(0.2);
    doc.font(BODY_FONT).fontSize(10.5).fillColor('#0f172a').text(body, { width: contentWidth, lineGap: 2 });
    doc.moveDown(0.8);
  }

  if (images.length > 0) {
    doc.font(BOLD_FONT).fontSize(13).fillColor(BRAND).text('Images');
    doc.moveDown(0.4);
    for (const image of images) {
      const scale = Math.min(contentWidth / image.width, IMAGE_MAX_HEIGHT / image.height, 1);
      const w = image.width * scale;
      const h = image.height * scale;
      // Keep each image with its caption on one page.
      if (doc.y + h + 30 > doc.page.height - MARGIN) doc.addPage();
      const top = doc.y;
      doc.image(image.data, MARGIN, top, { width: w, height: h });
      doc.y = top + h + 4;
      doc.font(BODY_FONT).fontSize(9).fillColor(MUTED).text(image.name, MARGIN, doc.y, { width: contentWidth });
      doc.moveDown(0.8);
    }
  }

  doc.end();
  return doc;
}
