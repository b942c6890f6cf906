import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * The text a reader sees in a PDF, line by line, read with Mozilla's PDF.js: the PDFs embed
 * subset TrueType fonts, whose strings are glyph ids that only the font's ToUnicode map turns back
 * into letters.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    let text = '';
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      text += '\n';
    }
    return text;
  } finally {
    await doc.destroy();
  }
}

/** A line of text as drawn: its string, where it starts (x from the left edge, y from the top edge of
 * the page, at the baseline) and its font size, in points. */
export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  size: number;
}

/** An image as drawn: its box in points, x from the left edge and y (its top) from the top edge. */
interface PdfImageBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PdfPageLayout {
  page: number;
  height: number;
  texts: PdfTextItem[];
  images: PdfImageBox[];
}

type Matrix = [number, number, number, number, number, number];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/**
 * Where every line of text and every image stands on each page, in reading order, read with PDF.js:
 * for checks of layout (what ends a page, how images are arranged, where wrapped lines start).
 */
export async function pdfLayout(pdf: Uint8Array): Promise<PdfPageLayout[]> {
  const doc = await getDocument({ data: new Uint8Array(pdf), disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  try {
    const pages: PdfPageLayout[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const height = page.view[3] - page.view[1];
      const texts: PdfTextItem[] = [];
      for (const item of (await page.getTextContent()).items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [a, b, , , e, f] = item.transform as Matrix;
        texts.push({ str: item.str, x: e, y: height - f, size: Math.hypot(a, b) });
      }
      // The images' boxes: the unit square mapped by the transformation in force where each is painted.
      const images: PdfImageBox[] = [];
      const ops = await page.getOperatorList();
      const stack: Matrix[] = [];
      let ctm: Matrix = [1, 0, 0, 1, 0, 0];
      ops.fnArray.forEach((fn, i) => {
        if (fn === OPS.save) stack.push(ctm);
        else if (fn === OPS.restore) ctm = stack.pop() ?? [1, 0, 0, 1, 0, 0];
        else if (fn === OPS.transform) ctm = multiply(ctm, ops.argsArray[i] as Matrix);
        else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
          const xs = [ctm[4], ctm[4] + ctm[0] + ctm[2]];
          const ys = [ctm[5], ctm[5] + ctm[1] + ctm[3]];
          images.push({ x: Math.min(...xs), y: height - Math.max(...ys), width: Math.abs(ctm[0] + ctm[2]), height: Math.abs(ctm[1] + ctm[3]) });
        }
      });
      pages.push({ page: n, height, texts, images });
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
