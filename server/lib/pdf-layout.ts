// Layout rules shared by every PDF the server makes (decision 201): text is cleaned before it is
// drawn, a heading is never the last thing on a page, and a bullet's wrapped lines hang under its text.
import { normaliseLineEndings } from '../../common/schemas/line-endings.ts';

/** The colours every PDF draws with: the brand blue, muted and body text, and rules. */
export const PDF_COLOURS = { BRAND: '#083b6d', MUTED: '#475569', TEXT: '#0f172a', RULE: '#cbd5e1' } as const;

// Control characters other than the line feed have no glyph in any font: PDFKit would draw the
// missing-glyph box for each. Tabs become spaces; the rest (C0, DEL, C1) are dropped, and so are the
// invisible format characters (zero-width spaces, direction marks, byte-order mark), which the font
// lacks too. The soft hyphen stays: PDFKit breaks lines at it.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|(?!\u00ad)\p{Cf}/gu;

/**
 * Text as it may be drawn: every line break an LF, tabs as spaces, no other control character.
 * Stored text is already LF-only (common/schemas/line-endings.ts); this keeps older rows and any
 * other source from printing boxes.
 */
export function pdfSafeText(value: string): string {
  return normaliseLineEndings(value).replace(/\t/g, '    ').replace(CONTROL, '');
}

/** The lowest y at which content may end on the current page. */
const pageBottom = (doc: PDFKit.PDFDocument) => doc.page.height - doc.page.margins.bottom;

/**
 * Starts a new page unless `height` more points fit below the current position. The new page's
 * content starts black; the fill colour in use is set again there, as PDFKit does on its own breaks.
 */
export function keepTogether(doc: PDFKit.PDFDocument, height: number): void {
  if (doc.y + height <= pageBottom(doc)) return;
  doc.addPage();
  const fill = (doc as PDFKit.PDFDocument & { _fillColor?: [PDFKit.Mixins.ColorValue, number?] })._fillColor;
  if (fill) doc.fillColor(...fill);
}

/**
 * The height of the first `lines` lines of a text block (all of it when shorter), as drawn with the
 * current font and size: what must fit under a heading so the heading does not end a page alone.
 */
export function leadingHeight(doc: PDFKit.PDFDocument, text: string, options: PDFKit.Mixins.TextOptions, lines = 2): number {
  const whole = doc.heightOfString(text, options);
  const line = doc.currentLineHeight(true) + (options.lineGap ?? 0);
  return Math.min(whole, line * lines);
}

export interface BulletOptions {
  /** Where the bullet sign stands, from the left margin. */
  indent?: number;
  /** Where the text (and each of its wrapped lines) starts, from the left margin. */
  textIndent?: number;
  lineGap?: number;
}

/**
 * A bullet with a hanging indent: the sign at `indent`, the text in a column from `textIndent`, so
 * every wrapped line starts under the first line's text. Leaves the position under the text, at the margin.
 */
export function bulletItem(doc: PDFKit.PDFDocument, text: string, options: BulletOptions = {}): void {
  const { indent = 10, textIndent = 24, lineGap = 1 } = options;
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.right - left - textIndent;
  const clean = pdfSafeText(text);
  // The first line must fit where the sign stands, or both move to the next page together.
  keepTogether(doc, doc.currentLineHeight(true) + lineGap);
  const top = doc.y;
  doc.text('•', left + indent, top, { lineBreak: false });
  doc.text(clean, left + textIndent, top, { width, lineGap });
  doc.x = left;
}
