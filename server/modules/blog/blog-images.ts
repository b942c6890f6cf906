import { randomUUID } from 'node:crypto';
import type { Metadata, OutputInfo } from 'sharp';
import { BLOG_IMAGE_LIMIT, exceedsImageLimit, IMAGE_TOO_LARGE } from '../../lib/image-limits.ts';
import { loadSharp } from '../../lib/lazy-modules.ts';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../common/errors.ts';
import {
  BLOG_IMAGE_TYPES,
  BLOG_IMAGE_WIDTHS,
  type BlogImageFormat,
  type BlogImageWidth,
} from '../../../common/schemas/blog.ts';
import type { BlogImageVariant } from '../../db/schema/blog.ts';
import { SNIFF_BYTES, sniffFileType } from '../../storage/file-type.ts';

/** An image checked, re-encoded and written to storage, not yet recorded in the database. */
export interface StoredBlogImage {
  id: string;
  width: number;
  height: number;
  variants: BlogImageVariant[];
}

const FORMATS: readonly BlogImageFormat[] = ['avif', 'webp'];
// Qualities that look clean on a phone and keep a 960 px banner well under 100 KB.
const AVIF_OPTIONS = { quality: 50, effort: 2 } as const;
const WEBP_OPTIONS = { quality: 78 } as const;

/** The storage key of one rendition: server-generated, never from the upload. */
export const blogImageKey = (imageId: string, width: BlogImageWidth, format: BlogImageFormat) => `blog/${imageId}/${width}.${format}`;

/**
 * Checks an uploaded image by its bytes (JPEG, PNG, WebP or AVIF), refuses one whose decoded size
 * is enormous (a "pixel bomb"), and stores it as AVIF and WebP at each of BLOG_IMAGE_WIDTHS (never
 * enlarged), turned upright and without any metadata (sharp writes none unless asked). Nothing is
 * left in storage if a step fails.
 */
export async function storeBlogImage(app: FastifyInstance, bytes: Buffer, fileName: string): Promise<StoredBlogImage> {
  const type = await sniffFileType(bytes.subarray(0, SNIFF_BYTES));
  if (!type || !(BLOG_IMAGE_TYPES as readonly string[]).includes(type.mime)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} is not a JPEG, PNG, WebP or AVIF image`);
  }
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    // Reads the header only: the size is known before anything is decoded.
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} could not be read as an image`);
  }
  if (!meta.width || !meta.height) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} could not be read as an image`);
  const declared = { width: meta.width, height: meta.pageHeight ?? meta.height, frames: meta.pages ?? 1 };
  if (exceedsImageLimit(declared, BLOG_IMAGE_LIMIT)) throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE(fileName, declared, BLOG_IMAGE_LIMIT));

  const id = randomUUID();
  const renditions: Array<{ width: BlogImageWidth; format: BlogImageFormat; data: Buffer; info: OutputInfo }> = [];
  // EXIF orientations 5 to 8 turn the picture a quarter: its upright width is the stored height.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = turned ? meta.height : meta.width;
  const height = turned ? meta.width : meta.height;
  try {
    const image = sharp(bytes, { limitInputPixels: BLOG_IMAGE_LIMIT.maxPixels, failOn: 'error' }).rotate();
    // One rendition at a time: the CPU is shared with everyone else's requests.
    for (const w of BLOG_IMAGE_WIDTHS) {
      for (const format of FORMATS) {
        const resized = image.clone().resize({ width: w, withoutEnlargement: true });
        const out = format === 'avif' ? resized.avif(AVIF_OPTIONS) : resized.webp(WEBP_OPTIONS);
        const { data, info } = await out.toBuffer({ resolveWithObject: true });
        renditions.push({ width: w, format, data, info });
      }
    }
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} could not be read as an image`);
  }

  const variants: BlogImageVariant[] = [];
  try {
    for (const r of renditions) {
      const key = blogImageKey(id, r.width, r.format);
      await app.storage.put(key, r.data, { contentType: `image/${r.format}` });
      variants.push({ format: r.format, width: r.width, height: r.info.height, key, size: r.data.length });
    }
  } catch (err) {
    await deleteBlogImageFiles(app, variants);
    throw err;
  }
  return { id, width, height, variants };
}

/** Removes an image's renditions from storage (a failed upload, or an orphan the retention job found). */
export async function deleteBlogImageFiles(app: FastifyInstance, variants: readonly BlogImageVariant[]): Promise<void> {
  await Promise.all(
    variants.map((v) => app.storage.delete(v.key).catch((err) => app.log.error({ err, key: v.key }, 'could not delete a blog image rendition'))),
  );
}
