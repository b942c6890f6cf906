import { BODY_FONT, BOLD_FONT, withUnicodeFonts } from './pdf-fonts.ts';
import { PDF_COLOURS, pdfSafeText } from './pdf-layout.ts';
import { loadPdfKit } from './lazy-modules.ts';
import { formatDateTimeWithZone } from '../../common/dates.ts';

/**
 * The one-page certificate of a client's decision (decision 293): what was decided on, the
 * decision, who, when, from which address, the SHA-256 of the exact bytes decided on and the
 * comment. Approvals use it; change orders reuse it with their own title and subject lines.
 */
export interface DecisionCertificate {
  /** Who issues it: the company's name as published when the certificate is drawn (decision 290). */
  issuer: string;
  /** 'Approval certificate', 'Change order certificate'. */
  title: string;
  /** Label and value of each fact about the subject (project, subject, version, ...), in order. */
  subjectLines: ReadonlyArray<readonly [string, string]>;
  /** 'approved' or 'rejected' (a change order's 'declined' reads as given). */
  decision: string;
  decidedBy: string;
  decidedAt: Date | string;
  /** The network address the decision came from. */
  address: string;
  /** Hex SHA-256 of the subject's bytes at the decision; left out when none was stored (a change order's facts are its own columns). */
  sha256?: string | null;
  comment: string | null;
  /** Files that are part of the subject (a change order's attachments, decision 296): name, bytes, SHA-256. */
  files?: ReadonlyArray<{ name: string; size: number; sha256: string }>;
  /** A reference printed in the footer (the decision's id). */
  reference?: string;
}

const MARGIN = 56;
const { BRAND, MUTED, TEXT, RULE } = PDF_COLOURS;
const APPROVED = '#166534';
const REJECTED = '#991b1b';
/** The comment is cut to keep the certificate one page (the full text stays in the portal). */
const COMMENT_MAX_LINES = 12;
/** Height kept for the closing rule and the footer note. */
const FOOTER_ROOM = 60;

const oneLine = (value: string) => pdfSafeText(value).replace(/\s*\n\s*/g, ' ').trim();

/** '2.4 MB', '312 KB', '900 bytes' (binary units, as the portal shows file sizes). */
function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Draws the certificate; the answer is the finished PDF's bytes. */
export async function renderDecisionCertificate(facts: DecisionCertificate): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const decidedAt = new Date(facts.decidedAt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: oneLine(facts.title),
      Author: oneLine(facts.issuer),
      Subject: 'Record of a client decision',
      CreationDate: decidedAt,
    },
  });
  withUnicodeFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - MARGIN * 2;
  const labelWidth = 120;
  const rule = () => {
    doc.moveDown(0.6);
    doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + width, doc.y).lineWidth(0.75).strokeColor(RULE).stroke();
    doc.moveDown(0.8);
  };
  const fact = (label: string, value: string, options: { font?: string; size?: number } = {}) => {
    const top = doc.y;
    doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text(label, MARGIN, top, { width: labelWidth - 8 });
    const labelBottom = doc.y;
    doc.font(options.font ?? BODY_FONT).fontSize(options.size ?? 10.5).fillColor(TEXT).text(value, MARGIN + labelWidth, top, { width: width - labelWidth });
    doc.y = Math.max(doc.y, labelBottom) + 4;
    doc.x = MARGIN;
  };

  doc.font(BOLD_FONT).fontSize(11).fillColor(BRAND).text(oneLine(facts.issuer), MARGIN, MARGIN);
  doc.moveDown(0.5);
  doc.font(BOLD_FONT).fontSize(22).fillColor(TEXT).text(oneLine(facts.title));
  doc.moveDown(0.3);
  doc.font(BODY_FONT).fontSize(10).fillColor(MUTED).text('A record of a decision made by the client in the project portal.');
  rule();

  for (const [label, value] of facts.subjectLines) fact(oneLine(label), oneLine(value) || '-');
  const files = facts.files ?? [];
  if (files.length > 0) {
    // One row per file: its name (cut to one line) and size, then its SHA-256 at 7 pt on the same row,
    // so ten files take about 130 pt and the page stays one.
    doc.moveDown(0.3);
    doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text(`Attachments (${files.length})`, MARGIN, doc.y);
    doc.moveDown(0.2);
    const hashWidth = 260;
    const nameWidth = width - hashWidth - 8;
    doc.font(BOLD_FONT).fontSize(7.5).fillColor(MUTED);
    const headTop = doc.y;
    doc.text('File and size', MARGIN, headTop, { width: nameWidth });
    doc.text('SHA-256', MARGIN + nameWidth + 8, headTop, { width: hashWidth });
    doc.y = headTop + 11;
    for (const file of files) {
      const top = doc.y;
      doc.font(BODY_FONT).fontSize(9).fillColor(TEXT);
      // A long name is shortened in its middle, so its ending (the kind) and the size stay readable.
      const size = ` (${fileSize(file.size)})`;
      let name = oneLine(file.name);
      const room = nameWidth - doc.widthOfString(size);
      while (doc.widthOfString(name) > room && name.length > 8) {
        const chars = [...name.replace('…', '')];
        const cut = Math.floor(chars.length / 2);
        name = `${chars.slice(0, cut - 1).join('')}…${chars.slice(cut + 1).join('')}`;
      }
      doc.text(name + size, MARGIN, top, { width: nameWidth, lineBreak: false });
      doc.font(BODY_FONT).fontSize(6.5).fillColor(TEXT).text(file.sha256, MARGIN + nameWidth + 8, top + 1.5, { width: hashWidth, lineBreak: false });
      doc.y = top + 13;
      doc.x = MARGIN;
    }
  }
  rule();

  const decision = oneLine(facts.decision).toLowerCase();
  const positive = decision === 'approved';
  doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text('Decision', MARGIN, doc.y);
  doc.moveDown(0.2);
  doc.font(BOLD_FONT).fontSize(20).fillColor(positive ? APPROVED : REJECTED).text(decision.toUpperCase());
  doc.moveDown(0.6);
  fact('Decided by', oneLine(facts.decidedBy));
  fact('Decided at', formatDateTimeWithZone(decidedAt));
  fact('UTC', decidedAt.toISOString().replace('.000Z', 'Z'));
  fact('From address', oneLine(facts.address) || 'unknown');
  // 8 pt keeps the 64 digits on one line, so it can be read and compared at a glance.
  if (facts.sha256) fact('SHA-256', facts.sha256, { size: 8 });
  const comment = facts.comment ? pdfSafeText(facts.comment).trim() : '';
  if (comment) {
    doc.moveDown(0.4);
    doc.font(BOLD_FONT).fontSize(10).fillColor(MUTED).text('Comment', MARGIN, doc.y);
    doc.moveDown(0.2);
    doc.font(BODY_FONT).fontSize(10.5).fillColor(TEXT);
    const lineHeight = doc.currentLineHeight(true) + 2;
    // Whatever the attachments took, the comment stops short of the footer's room.
    const room = Math.max(lineHeight, doc.page.height - MARGIN - FOOTER_ROOM - doc.y);
    doc.text(comment, MARGIN, doc.y, { width, lineGap: 2, height: Math.min(lineHeight * COMMENT_MAX_LINES, room), ellipsis: true });
  }
  rule();
  doc.font(BODY_FONT).fontSize(8.5).fillColor(MUTED).text(
    (facts.sha256
      ? 'The SHA-256 value identifies the exact content decided on: the same content always gives the same value, and any change to it gives another. '
      : 'The facts above are those recorded when the decision was made; a decided record never changes. ') +
      (files.length > 0 ? 'Each attachment\'s SHA-256 identifies its exact bytes; attachments cannot change once sent to the client. ' : '') +
      (facts.reference ? `Reference: ${oneLine(facts.reference)}.` : ''),
    MARGIN,
    doc.y,
    { width },
  );
  doc.end();
  return done;
}
