import { loadSharp } from './lazy-modules.ts';
import { AppError } from '../../common/errors.ts';

// Decision 112: an image is judged by the size it declares in its header, read without decoding
// it, before it is kept. A 300 KB PNG may declare 50,000 x 50,000 pixels (10 GB once decoded): shown
// inline, it exhausts a phone's memory.
//
// Decision 196: each kind of image has its own limit, the smallest its real use needs. Decoded, an
// image takes 4 bytes a pixel: 120 MP (the single limit before) was 480 MB in a client's browser and
// in the report pipeline's decoder.

/** What one kind of image may be: pixels of a frame, the longest side, pixels of all frames of an animation. */
export interface ImageLimit {
  /** How the refusal names the kind, starting its sentence ("Photos"). */
  kind: string;
  maxPixels: number;
  maxSide: number;
  maxTotalPixels: number;
  /** What the sender can do instead, ending the refusal. */
  instead: string;
}

/**
 * Photos of a site, in reports and in messages: a 50 MP phone camera's full resolution (8,160 x 6,120)
 * fits, and a panorama up to 16,384 px long (browsers' largest texture side). 200 MB decoded.
 */
export const PHOTO_MAX_PIXELS = 50_000_000;
export const PHOTO_MAX_SIDE = 16_384;
/** A message may carry an animated GIF or WebP: all its frames together. */
const PHOTO_MAX_TOTAL_PIXELS = 100_000_000;

/** Scanned or photographed certificates on the public vendor form: an A4 page at 600 dpi is 35 MP. */
export const VENDOR_IMAGE_MAX_PIXELS = 36_000_000;
/** An A3 page's long side at 600 dpi is 9,921 px. */
const VENDOR_IMAGE_MAX_SIDE = 10_000;

/** Blog and website images: the largest rendition is 1,600 px wide; a 24 MP camera (6,000 x 4,000) fits. */
export const BLOG_IMAGE_MAX_PIXELS = 25_000_000;
const BLOG_IMAGE_MAX_SIDE = 10_000;

export const PHOTO_LIMIT: ImageLimit = {
  kind: 'Photos',
  maxPixels: PHOTO_MAX_PIXELS,
  maxSide: PHOTO_MAX_SIDE,
  maxTotalPixels: PHOTO_MAX_TOTAL_PIXELS,
  instead: 'Please send a smaller image, or put it in a PDF or zip file.',
};
export const VENDOR_IMAGE_LIMIT: ImageLimit = {
  kind: 'Scanned documents',
  maxPixels: VENDOR_IMAGE_MAX_PIXELS,
  maxSide: VENDOR_IMAGE_MAX_SIDE,
  maxTotalPixels: VENDOR_IMAGE_MAX_PIXELS,
  instead: 'Please send a smaller image, or the document as a PDF.',
};
export const BLOG_IMAGE_LIMIT: ImageLimit = {
  kind: 'Blog images',
  maxPixels: BLOG_IMAGE_MAX_PIXELS,
  maxSide: BLOG_IMAGE_MAX_SIDE,
  // Only the first frame of an animation is decoded, and only it is kept (as still renditions).
  maxTotalPixels: Number.POSITIVE_INFINITY,
  instead: 'Please resize it (1,600 pixels wide is enough) and upload it again.',
};

/** The media library's images (decision 286): the blog's limits, the largest rendition being 1,920 px wide. */
export const MEDIA_IMAGE_LIMIT: ImageLimit = {
  ...BLOG_IMAGE_LIMIT,
  kind: 'Website images',
  instead: 'Please resize it (1,920 pixels wide is enough) and upload it again.',
};

const grouped = (n: number) => n.toLocaleString('en-GB');
export const IMAGE_TOO_LARGE = (name: string, size: { width: number; height: number; frames: number }, limit: ImageLimit) =>
  `${name} is too large an image to open safely (${grouped(size.width)} × ${grouped(size.height)} pixels${size.frames > 1 ? `, ${size.frames} frames` : ''}). ` +
  `${limit.kind} may have at most ${grouped(limit.maxSide)} pixels a side and ${limit.maxPixels / 1_000_000} megapixels. ${limit.instead}`;
const IMAGE_UNREADABLE = (name: string) => `${name} could not be read as an image. Please send it again, or as a PDF.`;

/** Width, height and frames the image declares in its header (the first bytes are enough); null if unreadable. */
export async function declaredImageSize(head: Buffer): Promise<{ width: number; height: number; frames: number } | null> {
  try {
    // metadata() parses the header only; limitInputPixels off so the check below decides, with its own words.
    const sharp = await loadSharp();
    const meta = await sharp(head, { limitInputPixels: false, failOn: 'none' }).metadata();
    if (!meta.width || !meta.height) return null;
    const frames = meta.pages ?? 1;
    const height = meta.pageHeight ?? (frames > 1 ? Math.ceil(meta.height / frames) : meta.height);
    return { width: meta.width, height, frames };
  } catch {
    return null;
  }
}

/**
 * Refuses (413) an image whose declared dimensions pass the limit of its kind, and (400) one whose
 * header cannot be read from its first bytes, without decoding its pixels. Answers the size.
 */
export async function assertImageDimensions(head: Buffer, name: string, limit: ImageLimit): Promise<{ width: number; height: number; frames: number }> {
  const size = await declaredImageSize(head);
  if (!size) throw new AppError('BAD_REQUEST', IMAGE_UNREADABLE(name));
  if (exceedsImageLimit(size, limit)) throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE(name, size, limit));
  return size;
}

/** Whether a size passes the limit: a side, the pixels of a frame, or the pixels of all frames. */
export function exceedsImageLimit(size: { width: number; height: number; frames: number }, limit: ImageLimit): boolean {
  const frame = size.width * size.height;
  return size.width > limit.maxSide || size.height > limit.maxSide || frame > limit.maxPixels || frame * size.frames > limit.maxTotalPixels;
}
