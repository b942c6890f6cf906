import { loadSharp } from './lazy-modules.ts';
import { AppError } from '../../common/errors.ts';

// Decision 112: an image is judged by the size it declares in its header, read without decoding
// it, before it is kept. A 300 KB PNG may declare 50,000 x 50,000 pixels (10 GB once decoded): shown
// inline, it exhausts a phone's memory. These limits are far above any phone camera (a 200 MP
// sensor is 16,320 x 12,240).

/** Pixels of one frame: a 120 MP photo, beyond today's phones' 50 MP default (about 480 MB decoded). */
export const IMAGE_MAX_PIXELS = 120_000_000;
/** The longest side. */
export const IMAGE_MAX_SIDE = 20_000;
/** Pixels of all frames of an animation together. */
export const IMAGE_MAX_TOTAL_PIXELS = 300_000_000;

export const IMAGE_TOO_LARGE = (name: string) =>
  `${name} is too large an image to show safely (at most ${IMAGE_MAX_SIDE.toLocaleString('en-GB')} pixels a side and ${Math.round(IMAGE_MAX_PIXELS / 1_000_000)} megapixels). Please send a smaller image, or put it in a PDF or zip file.`;
export const IMAGE_UNREADABLE = (name: string) => `${name} could not be read as an image. Please send it again, or as a PDF.`;

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
 * Refuses (413) an image whose declared dimensions pass the limits, and (400) one whose header cannot
 * be read from its first bytes, without decoding its pixels.
 */
export async function assertImageDimensions(head: Buffer, name: string): Promise<void> {
  const size = await declaredImageSize(head);
  if (!size) throw new AppError('BAD_REQUEST', IMAGE_UNREADABLE(name));
  const frame = size.width * size.height;
  if (
    size.width > IMAGE_MAX_SIDE ||
    size.height > IMAGE_MAX_SIDE ||
    frame > IMAGE_MAX_PIXELS ||
    frame * size.frames > IMAGE_MAX_TOTAL_PIXELS
  ) {
    throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE(name));
  }
}
