import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The fonts of every PDF the server makes. PDFKit's built-in Helvetica knows only Windows-1252, so a
 * naira sign (₦) or a Yoruba, Igbo or Hausa letter (ọ, ṣ, ẹ, ƙ, ŋ) typed into a report would come
 * out as garbage. DejaVu Sans covers them; PDFKit embeds only the glyphs used, so files stay small.
 */
const PDF_FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

export const BODY_FONT = 'Body';
export const BOLD_FONT = 'Bold';

/** Registers the two fonts on a new document and selects the regular one. */
export function withUnicodeFonts(doc: PDFKit.PDFDocument): PDFKit.PDFDocument {
  doc.registerFont(BODY_FONT, PDF_FONTS.regular);
  doc.registerFont(BOLD_FONT, PDF_FONTS.bold);
  return doc.font(BODY_FONT);
}
