// Heavy libraries the server needs only for some requests, loaded on first use instead of at start:
// each costs the start-up about a second of CPU and tens of MB of memory that most processes never
// use (docs/decisions/156). One import per process; the promise is shared by concurrent first uses.
import type sharpType from 'sharp';
import type PDFDocumentType from 'pdfkit';

let sharpModule: Promise<typeof sharpType> | undefined;
let pdfkitModule: Promise<typeof PDFDocumentType> | undefined;

/** sharp (libvips): image uploads, thumbnails and the pictures of report PDFs. */
export function loadSharp(): Promise<typeof sharpType> {
  sharpModule ??= import('sharp').then((m) => m.default);
  return sharpModule;
}

/** PDFKit: the company profile and report PDFs. */
export function loadPdfKit(): Promise<typeof PDFDocumentType> {
  pdfkitModule ??= import('pdfkit').then((m) => m.default);
  return pdfkitModule;
}
