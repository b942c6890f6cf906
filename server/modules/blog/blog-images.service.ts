import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { AppError, notFound } from '../../../common/errors.ts';
import { BLOG_IMAGE_MAX_BYTES, BLOG_IMAGE_WIDTHS, type BlogImageFormat, type BlogImageWidth } from '../../../common/schemas/blog.ts';
import { blogImages, type BlogImageVariant } from '../../db/schema/blog.ts';
import { cleanFileName } from '../../lib/file-names.ts';
import { parseRenditionFile } from '../../lib/image-renditions.ts';
import type { SessionUser } from '../auth/sessions.service.ts';
import { blogImageKey, deleteBlogImageFiles, storeBlogImage, type StoredBlogImage } from './blog-images.ts';

// The images of the blog (banners and pictures inside a post's text): upload, the public
// renditions, and the removal of those no post uses. The posts themselves are in blog.service.ts.

/** Records an uploaded image whose renditions are already stored. */
/** `staff` is nobody (`_id: null`) for the sample posts of a first start. */
export async function recordBlogImage(app: FastifyInstance, staff: { _id: string | null }, image: StoredBlogImage, originalName: string) {
  await app.db.insert(blogImages).values({
    id: image.id,
    uploadedBy: staff._id,
    originalName,
    width: image.width,
    height: image.height,
    variants: image.variants,
    createdAt: app.clock.now(),
  });
  return { _id: image.id, width: image.width, height: image.height };
}

const IMAGE_MAX_MB = BLOG_IMAGE_MAX_BYTES / (1024 * 1024);

/** Reads the one image of a multipart upload (field "file"), checks and stores it. */
async function receiveImage(app: FastifyInstance, parts: AsyncIterable<Multipart>): Promise<{ image: StoredBlogImage; name: string }> {
  let received: { image: StoredBlogImage; name: string } | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') continue;
      const name = cleanFileName(part.filename, 'image');
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new AppError('BAD_REQUEST', `Unexpected file field "${part.fieldname}": send the image as "file"`);
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', `${name} is larger than ${IMAGE_MAX_MB} MB`);
        throw err;
      }
      if (bytes.length === 0) throw new AppError('BAD_REQUEST', `${name} is empty`);
      received = { image: await storeBlogImage(app, bytes, name), name };
    }
  } catch (err) {
    if (received) await deleteBlogImageFiles(app, received.image.variants);
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw new AppError('BAD_REQUEST', 'Send one image at a time');
    throw err;
  }
  if (!received) throw new AppError('BAD_REQUEST', 'Please choose an image file');
  return received;
}

/**
 * Receives a banner or an image for a post's text (the multipart upload's one file, field "file"):
 * checked by its bytes, stored as AVIF/WebP renditions and recorded. On any failure nothing is left
 * in storage.
 */
export async function uploadBlogImage(app: FastifyInstance, staff: SessionUser, parts: AsyncIterable<Multipart>) {
  const { image, name } = await receiveImage(app, parts);
  try {
    return await recordBlogImage(app, staff, image, name);
  } catch (err) {
    await deleteBlogImageFiles(app, image.variants);
    throw err;
  }
}

/** A stored rendition of a blog image by its public file name ({width}.{format}); otherwise not found. */
export async function findBlogImageRendition(
  app: FastifyInstance,
  imageId: string,
  file: string,
): Promise<{ key: string; format: BlogImageFormat; size: number }> {
  const parsed = parseRenditionFile(imageId, file);
  if (!parsed || !(BLOG_IMAGE_WIDTHS as readonly number[]).includes(parsed.width)) throw notFound('Image not found');
  const key = blogImageKey(imageId, parsed.width as BlogImageWidth, parsed.format);
  const stat = await app.storage.stat(key);
  if (!stat) throw notFound('Image not found');
  return { key, format: parsed.format, size: stat.size };
}

/** How long an uploaded image may wait for a post to use it before the retention job removes it. */
const BLOG_ORPHAN_IMAGE_GRACE_MS = 24 * 60 * 60_000;

/**
 * Deletes images older than the grace period that no post uses (neither as banner nor inside its
 * text), then their files. Returns how many.
 */
export async function pruneOrphanBlogImages(app: FastifyInstance): Promise<number> {
  const before = new Date(app.clock.now().getTime() - BLOG_ORPHAN_IMAGE_GRACE_MS);
  const rows = await app.db.execute<{ id: string; variants: BlogImageVariant[] }>(sql`
    delete from blog_images i
    where i.created_at < ${before}
      and not exists (
        select 1 from blog_posts p
        where p.banner_image_id = i.id or strpos(p.content, '/api/blog/images/' || i.id::text || '/') > 0
      )
    returning i.id, i.variants`);
  for (const row of rows.rows) await deleteBlogImageFiles(app, row.variants);
  return rows.rows.length;
}
