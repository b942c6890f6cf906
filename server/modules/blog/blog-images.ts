import { randomUUID } from 'node:crypto';
import { BLOG_IMAGE_LIMIT } from '../../lib/image-limits.ts';
import type { FastifyInstance } from 'fastify';
import { BLOG_IMAGE_TYPES, BLOG_IMAGE_WIDTHS, type BlogImageFormat, type BlogImageWidth } from '../../../common/schemas/blog.ts';
import type { BlogImageVariant } from '../../db/schema/blog.ts';
import { checkImage, deleteRenditionFiles, encodeRenditions, storeRenditions } from '../../lib/image-renditions.ts';

/** An image checked, re-encoded and written to storage, not yet recorded in the database. */
export interface StoredBlogImage {
  id: string;
  width: number;
  height: number;
  variants: BlogImageVariant[];
}

/** The storage key of one rendition: server-generated, never from the upload. */
export const blogImageKey = (imageId: string, width: BlogImageWidth, format: BlogImageFormat) => `blog/${imageId}/${width}.${format}`;

/**
 * Checks an uploaded image by its bytes (JPEG, PNG, WebP or AVIF), refuses one whose decoded size
 * is enormous (a "pixel bomb"), and stores it as AVIF and WebP at each of BLOG_IMAGE_WIDTHS (never
 * enlarged), turned upright and without any metadata (sharp writes none unless asked). Nothing is
 * left in storage if a step fails.
 */
export async function storeBlogImage(app: FastifyInstance, bytes: Buffer, fileName: string): Promise<StoredBlogImage> {
  const { width, height } = await checkImage(bytes, fileName, BLOG_IMAGE_TYPES, BLOG_IMAGE_LIMIT);
  const id = randomUUID();
  const encoded = await encodeRenditions(bytes, fileName, BLOG_IMAGE_WIDTHS, BLOG_IMAGE_LIMIT);
  const variants = await storeRenditions(app, encoded, (w, f) => blogImageKey(id, w as BlogImageWidth, f));
  return { id, width, height, variants };
}

/** Removes an image's renditions from storage (a failed upload, or an orphan the retention job found). */
export async function deleteBlogImageFiles(app: FastifyInstance, variants: readonly BlogImageVariant[]): Promise<void> {
  await deleteRenditionFiles(app, variants);
}
