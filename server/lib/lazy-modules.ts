// Heavy libraries the server needs only for some requests, loaded on first use instead of at start:
// each costs the start-up about a second of CPU and tens of MB of memory that most processes never
// use (docs/decisions/156). One import per process; the promise is shared by concurrent first uses.
import type sharpType from 'sharp';
import type PDFDocumentType from 'pdfkit';
import type QRCodeType from 'qrcode';
import type nodemailerType from 'nodemailer';

let sharpModule: Promise<typeof sharpType> | undefined;
let pdfkitModule: Promise<typeof PDFDocumentType> | undefined;

/** sharp (libvips): image uploads, thumbnails and the pictures of report PDFs. */
export function loadSharp(): Promise<typeof sharpType> {
  sharpModule ??= import('sharp').then((m) => {
    const sharp = m.default;
    // libvips keeps up to 50 MB of decoded images for operations it may be asked again. Every image
    // here arrives as a new buffer (an upload, a file read for one PDF), so nothing is ever asked again:
    // the cache only held memory that a long-running process never gave back (decision 181).
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

/** PDFKit: the company profile and report PDFs. */
export function loadPdfKit(): Promise<typeof PDFDocumentType> {
  pdfkitModule ??= import('pdfkit').then((m) => m.default);
  return pdfkitModule;
}

let qrcodeModule: Promise<typeof QRCodeType> | undefined;

/** qrcode: the QR code of an authenticator enrolment (decision 180). */
export function loadQrCode(): Promise<typeof QRCodeType> {
  qrcodeModule ??= import('qrcode').then((m) => m.default);
  return qrcodeModule;
}

let nodemailerModule: Promise<typeof nodemailerType> | undefined;

/** nodemailer: only a process that sends a mail (SMTP_URL set) needs it (decision 301). */
export function loadNodemailer(): Promise<typeof nodemailerType> {
  nodemailerModule ??= import('nodemailer').then((m) => m.default);
  return nodemailerModule;
}
