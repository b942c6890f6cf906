import { randomUUID } from 'node:crypto';
import type { Metadata, Sharp } from 'sharp';
import { declaredImageSize, exceedsImageLimit, IMAGE_TOO_LARGE, PHOTO_LIMIT } from '../../lib/image-limits.ts';
import { loadSharp } from '../../lib/lazy-modules.ts';
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

/** A stored image as its row at a place in a report: a new report and a correction both add them. */
export function reportImageRow(reportId: string, img: StoredReportImage, position: number) {
  return {
    id: img.id,
    reportId,
    position,
    storageKey: img.storageKey,
    thumbnailKey: img.thumbnailKey,
    mimeType: img.mimeType,
    originalName: img.originalName,
    size: img.size,
    width: img.width,
    height: img.height,
  };
}

// Thumbnails fit this box: sharp enough for a phone's two-column grid, small on a metered network.
const THUMBNAIL_BOX_PX = 480;

// Originals are re-encoded (to drop EXIF, GPS included); lossy formats keep this much quality,
// high enough that nobody sees the second compression, and lossless formats stay lossless.
const ORIGINAL_LOSSY_QUALITY = 90;

/** Whether a WebP file holds a lossless (VP8L) image, read from its RIFF chunks. */
export function isLosslessWebp(bytes: Buffer): boolean {
  if (bytes.length < 20 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return false;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const fourcc = bytes.toString('latin1', offset, offset + 4);
    if (fourcc === 'VP8L') return true;
    if (fourcc === 'VP8 ') return false;
    const size = bytes.readUInt32LE(offset + 4);
    offset += 8 + size + (size % 2);
  }
  return false;
}

/**
 * The original as it is shown: turned upright by its EXIF orientation, every metadata block (EXIF
 * with the camera's GPS position, XMP, IPTC, comments) dropped, in its own format. The colour
 * profile stays, so colours do not shift.
 */
function encodeOriginal(pipeline: Sharp, meta: Metadata, bytes: Buffer): Sharp {
  const upright = pipeline.rotate().keepIccProfile();
  switch (meta.format) {
    case 'jpeg':
      return upright.jpeg({
        quality: ORIGINAL_LOSSY_QUALITY,
        chromaSubsampling: meta.chromaSubsampling === '4:4:4' ? '4:4:4' : '4:2:0',
        progressive: meta.isProgressive,
      });
    case 'png':
      return upright.png({ palette: meta.isPalette });
    case 'webp':
      return isLosslessWebp(bytes) ? upright.webp({ lossless: true }) : upright.webp({ quality: ORIGINAL_LOSSY_QUALITY });
    default:
      throw new Error(`unexpected image format ${meta.format}`);
  }
}

/**
 * Checks an uploaded image by its bytes (JPEG, PNG or WebP only), re-encodes it without its
 * metadata, makes its thumbnail and writes both under server-generated keys. Nothing is left in
 * storage if any step fails.
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
  // A decompression bomb (tiny file, enormous canvas) is refused by its header, before it is decoded.
  const declared = await declaredImageSize(bytes);
  if (!declared) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} could not be read as an image`);
  if (exceedsImageLimit(declared, PHOTO_LIMIT)) throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE(fileName, declared, PHOTO_LIMIT));
  let original: Buffer;
  let width: number;
  let height: number;
  let thumbnail: Buffer;
  try {
    const sharp = await loadSharp();
    const image = sharp(bytes, { limitInputPixels: PHOTO_LIMIT.maxPixels, failOn: 'error' });
    const meta = await image.metadata();
    const encoded = await encodeOriginal(image.clone(), meta, bytes).toBuffer({ resolveWithObject: true });
    original = encoded.data;
    width = encoded.info.width;
    height = encoded.info.height;
    thumbnail = await image
      .clone()
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
  await app.storage.put(storageKey, original, { contentType: type.mime });
  try {
    await app.storage.put(thumbnailKey, thumbnail, { contentType: 'image/webp' });
  } catch (err) {
    await app.storage.delete(storageKey).catch(() => undefined);
    throw err;
  }
  return { id, storageKey, thumbnailKey, mimeType: type.mime, originalName: fileName, size: original.length, width, height };
}

/** Removes stored images (after a failed upload or a failed database write). */
export async function deleteStoredReportImages(app: FastifyInstance, images: readonly StoredReportImage[]): Promise<void> {
  await Promise.all(
    images.flatMap((img) => [img.storageKey, img.thumbnailKey].map((key) => app.storage.delete(key).catch((err) => app.log.error({ err, key }, 'could not delete an orphaned report image')))),
  );
}

/** An image re-encoded as JPEG for the PDF (pdfkit embeds JPEG and PNG, not WebP), at most 1600 px wide. */
export async function imageForPdf(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(bytes, { limitInputPixels: PHOTO_LIMIT.maxPixels })
    .rotate()
    .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 78 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
