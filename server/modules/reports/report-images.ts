import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../common/errors.ts';
import { REPORT_IMAGE_TYPES } from '../../../common/schemas/reports.ts';
import { SNIFF_BYTES, sniffFileType } from '../../storage/file-type.ts';

/** An image written to storage, not yet recorded in the database. */
export interface StoredReportImage {
  id: string;
  storageKey: string;
  thumbnailKey: string;
  mimeType: string;
  originalName: string;
  size: number;
  width: number;
  height: number;
}

// Thumbnails fit this box: sharp enough for a phone's two-column grid, small on a metered network.
const THUMBNAIL_BOX_PX = 480;
// A decompression bomb (tiny file, enormous canvas) is refused before it is decoded.
const MAX_INPUT_PIXELS = 60_000_000;

/** The uploader's file name, reduced to something safe to show and to put in a header. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 200);
  return cleaned || fallback;
}

/**
 * Checks an uploaded image by its bytes (JPEG, PNG or WebP only), makes its thumbnail and writes
 * both under server-generated keys. Nothing is left in storage if any step fails.
 */
export async function storeReportImage(
  app: FastifyInstance,
  reportId: string,
  bytes: Buffer,
  fileName: string,
): Promise<StoredReportImage> {
  const type = await sniffFileType(bytes.subarray(0, SNIFF_BYTES));
  if (!type || !(REPORT_IMAGE_TYPES as readonly string[]).includes(type.mime)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} is not a JPEG, PNG or WebP image`);
  }
  let width: number;
  let height: number;
  let thumbnail: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const meta = await image.metadata();
    // Photos from phones carry their orientation in EXIF; the displayed size is what counts.
    const rotated = (meta.orientation ?? 1) >= 5;
    width = (rotated ? meta.height : meta.width) ?? 0;
    height = (rotated ? meta.width : meta.height) ?? 0;
    thumbnail = await image
      .rotate()
      .resize(THUMBNAIL_BOX_PX, THUMBNAIL_BOX_PX, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 72 })
      .toBuffer();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} could not be read as an image`);
  }
  const id = randomUUID();
  const storageKey = `reports/${reportId}/${id}.${type.ext}`;
  const thumbnailKey = `reports/${reportId}/${id}-thumb.webp`;
  await app.storage.put(storageKey, bytes, { contentType: type.mime });
  try {
    await app.storage.put(thumbnailKey, thumbnail, { contentType: 'image/webp' });
  } catch (err) {
    await app.storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  return { id, storageKey, thumbnailKey, mimeType: type.mime, originalName: fileName, size: bytes.length, width, height };
}

/** Removes stored images (after a failed upload or a failed database write). */
export async function deleteStoredReportImages(app: FastifyInstance, images: readonly StoredReportImage[]): Promise<void> {
  await Promise.all(
    images.flatMap((img) => [img.storageKey, img.thumbnailKey].map((key) => app.storage.delete(key).catch((err) => app.log.error({ err, key }, 'could not delete an orphaned report image')))),
  );
}

/** An image re-encoded as JPEG for the PDF (pdfkit embeds JPEG and PNG, not WebP), at most 1600 px wide. */
export async function imageForPdf(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 78 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
