import { and, count, desc, eq, ilike, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { AppError, conflict, notFound } from '../../../common/errors.ts';
import {
  BLOG_IMAGE_MAX_BYTES,
  BLOG_IMAGE_WIDTHS,
  BLOG_LIMITS,
  BLOG_LIST_PAGE_SIZE,
  BLOG_MESSAGES,
  slugFromTitle,
  type BlogImageFormat,
  type BlogImageWidth,
  type BlogPost,
  type BlogPostFieldsParsed,
  type BlogPostSummary,
  type BlogStatus,
  type BlogVisibility,
} from '../../../common/schemas/blog.ts';
import { blogImages, blogPosts, type BlogImageVariant } from '../../db/schema/blog.ts';
import { users } from '../../db/schema/users.ts';
import type { Db } from '../../db/client.ts';
import { notifySql } from '../../events/pg-events.ts';
import { htmlToText, RELATIVE_EXPLOIT_MESSAGE, sanitizeArticleHtml, UnsafeArticleHtmlError } from '../../lib/article-html.ts';
import type { SessionUser } from '../auth/sessions.service.ts';
import { cleanFileName } from '../reports/report-images.ts';
import { blogImageKey, deleteBlogImageFiles, storeBlogImage, type StoredBlogImage } from './blog-images.ts';

/** The channel that tells every process a post changed (the public pages' cache listens to it). */
export const BLOG_CHANGED_CHANNEL = 'blog_changed';

type PostRow = typeof blogPosts.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The status a post shows: a scheduled post whose time has come is published (no job has to flip it first). */
function effectiveStatus(row: Pick<PostRow, 'status' | 'publishAt'>, now: Date): BlogStatus {
  return row.status === 'scheduled' && row.publishAt && row.publishAt <= now ? 'published' : row.status;
}

/** Whether the post has been public at some point (or is now): from then on its slug stays. */
function slugLocked(row: PostRow, now: Date): boolean {
  return row.status === 'published' || (row.firstPublishedAt !== null && row.firstPublishedAt <= now) || effectiveStatus(row, now) === 'published';
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toSummary(row: PostRow, now: Date): BlogPostSummary {
  return {
    _id: row.id,
    title: row.title,
    slug: row.slug,
    author: row.author,
    category: row.category,
    status: effectiveStatus(row, now),
    visibility: row.visibility,
    publishAt: iso(row.publishAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

/** Staff's list: newest change first, optionally titles containing `q` (case-insensitive). */
export async function listBlogPosts(app: FastifyInstance, query: { page: number; q?: string }) {
  const where = query.q ? ilike(blogPosts.title, `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    app.db
      .select()
      .from(blogPosts)
      .where(where)
      .orderBy(desc(blogPosts.updatedAt), desc(blogPosts.id))
      .limit(BLOG_LIST_PAGE_SIZE)
      .offset((query.page - 1) * BLOG_LIST_PAGE_SIZE),
    app.db.select({ total: count() }).from(blogPosts).where(where),
  ]);
  const now = app.clock.now();
  return { posts: rows.map((r) => toSummary(r, now)), total, page: query.page, pageSize: BLOG_LIST_PAGE_SIZE };
}

async function postById(db: Db | Tx, id: string, now: Date): Promise<BlogPost | null> {
  const [row] = await db
    .select({ post: blogPosts, image: blogImages, editor: { id: users.id, name: users.name } })
    .from(blogPosts)
    .leftJoin(blogImages, eq(blogImages.id, blogPosts.bannerImageId))
    .leftJoin(users, eq(users.id, blogPosts.updatedBy))
    .where(eq(blogPosts.id, id));
  if (!row) return null;
  return {
    ...toSummary(row.post, now),
    excerpt: row.post.excerpt,
    content: row.post.content,
    banner: row.image ? { _id: row.image.id, width: row.image.width, height: row.image.height } : null,
    firstPublishedAt: iso(row.post.firstPublishedAt),
    updatedBy: row.editor?.id ? { _id: row.editor.id, name: row.editor.name } : null,
  };
}

/** One post with everything the edit form needs; 404 when missing. */
export async function findBlogPost(app: FastifyInstance, id: string): Promise<BlogPost> {
  const post = await postById(app.db, id, app.clock.now());
  if (!post) throw notFound(BLOG_MESSAGES.notFound);
  return post;
}

const invalid = (field: string, message: string) => new AppError('VALIDATION_FAILED', message, [{ field: `body.${field}`, message }]);

/** The HTML a preview shows: exactly what a save would store (the public page sanitises it once more). */
export function previewContent(html: string): string {
  try {
    return sanitizeArticleHtml(html);
  } catch (err) {
    if (err instanceof UnsafeArticleHtmlError) throw invalid('content', RELATIVE_EXPLOIT_MESSAGE);
    throw err;
  }
}

/** The post's HTML through the specification's allowlist; a 'relative:' URL or an empty body is refused. */
function cleanContent(html: string): string {
  let clean: string;
  try {
    clean = sanitizeArticleHtml(html);
  } catch (err) {
    if (err instanceof UnsafeArticleHtmlError) throw invalid('content', RELATIVE_EXPLOIT_MESSAGE);
    throw err;
  }
  if (!htmlToText(clean) && !/<img\b/i.test(clean)) throw invalid('content', 'Please fill in the content field');
  if (clean.length > BLOG_LIMITS.content) throw invalid('content', `The content is too long (at most ${BLOG_LIMITS.content.toLocaleString('en-GB')} characters)`);
  return clean;
}

/** Status, publication date and first-publication date of a save (decision 091). */
function publication(fields: BlogPostFieldsParsed, existing: PostRow | null, now: Date) {
  const asked = fields.publishAt ? new Date(fields.publishAt) : null;
  let status: BlogStatus = fields.status;
  let publishAt: Date | null;
  if (status === 'draft') {
    publishAt = null;
  } else if (status === 'published') {
    if (asked && asked > now) throw invalid('publishAt', BLOG_MESSAGES.publishedInFuture);
    const keep = existing && effectiveStatus(existing, now) === 'published' ? existing.publishAt : null;
    publishAt = asked ?? keep ?? now;
  } else {
    publishAt = asked;
    // A time already past: the post is public now, so it is stored as what it is.
    if (publishAt && publishAt <= now) status = 'published';
  }
  const wasPublic = existing && slugLocked(existing, now) ? (existing.firstPublishedAt ?? existing.publishAt ?? now) : null;
  const firstPublishedAt = wasPublic ?? (status === 'published' ? publishAt : null);
  return { status, publishAt, firstPublishedAt };
}

/**
 * A slug no other post has: `wanted`, or `wanted-2`, `wanted-3`... Slug writes take one transaction
 * lock, so two posts saved at once with the same title cannot both pick the same suffix (the unique
 * index would refuse the second; this makes it wait and pick the next one instead).
 */
async function freeSlug(tx: Tx, wanted: string, selfId: string | null): Promise<string> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('blog_posts.slug'))`);
  const base = wanted.slice(0, BLOG_LIMITS.slug - 8).replace(/-+$/, '') || 'post';
  const pattern = `^${base.replace(/[^a-z0-9-]/g, '')}(-[0-9]+)?$`;
  const taken = await tx
    .select({ slug: blogPosts.slug })
    .from(blogPosts)
    .where(and(or(eq(blogPosts.slug, wanted), sql`${blogPosts.slug} ~ ${pattern}`), selfId ? sql`${blogPosts.id} <> ${selfId}` : undefined));
  const used = new Set(taken.map((r) => r.slug));
  if (!used.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Refuses a banner id that names no stored image (and keeps it from being pruned until the save commits). */
async function assertBannerExists(tx: Tx, bannerImageId: string | null) {
  if (!bannerImageId) return;
  const [found] = await tx.select({ id: blogImages.id }).from(blogImages).where(eq(blogImages.id, bannerImageId)).for('key share');
  if (!found) throw invalid('bannerImageId', BLOG_MESSAGES.bannerMissing);
}

/** Creates a post; its slug comes from the title unless given, with a suffix on a clash. */
export async function createBlogPost(app: FastifyInstance, staff: SessionUser, fields: BlogPostFieldsParsed): Promise<BlogPost> {
  const now = app.clock.now();
  const content = cleanContent(fields.content);
  const pub = publication(fields, null, now);
  return app.db.transaction(async (tx) => {
    await assertBannerExists(tx, fields.bannerImageId);
    const slug = await freeSlug(tx, fields.slug || slugFromTitle(fields.title), null);
    const [row] = await tx
      .insert(blogPosts)
      .values({
        title: fields.title,
        slug,
        excerpt: fields.excerpt,
        content,
        author: fields.author,
        category: fields.category,
        bannerImageId: fields.bannerImageId,
        visibility: fields.visibility,
        ...pub,
        createdBy: staff._id,
        updatedBy: staff._id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: blogPosts.id });
    await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id: row.id }));
    return (await postById(tx, row.id, now))!;
  });
}

/** Locks the post for this transaction and checks the version the editor started from. */
async function lockForEdit(tx: Tx, id: string, version: number | null): Promise<PostRow> {
  const [row] = await tx.select().from(blogPosts).where(eq(blogPosts.id, id)).for('update');
  if (!row) throw notFound(BLOG_MESSAGES.notFound);
  if (version !== null && row.version !== version) throw conflict(BLOG_MESSAGES.versionConflict);
  return row;
}

/**
 * Saves an edit made from `version`; refused with 409 if someone saved in between. The slug may
 * change until the post has been public, then stays.
 */
export async function updateBlogPost(
  app: FastifyInstance,
  staff: SessionUser,
  id: string,
  fields: BlogPostFieldsParsed & { version: number },
): Promise<BlogPost> {
  const now = app.clock.now();
  const content = cleanContent(fields.content);
  return app.db.transaction(async (tx) => {
    const existing = await lockForEdit(tx, id, fields.version);
    const locked = slugLocked(existing, now);
    let slug = existing.slug;
    if (fields.slug && fields.slug !== existing.slug) {
      if (locked) throw invalid('slug', BLOG_MESSAGES.slugLocked);
      slug = await freeSlug(tx, fields.slug, id);
    } else if (!fields.slug && !locked) {
      slug = await freeSlug(tx, slugFromTitle(fields.title), id);
    }
    const pub = publication(fields, existing, now);
    await assertBannerExists(tx, fields.bannerImageId);
    await tx
      .update(blogPosts)
      .set({
        title: fields.title,
        slug,
        excerpt: fields.excerpt,
        content,
        author: fields.author,
        category: fields.category,
        bannerImageId: fields.bannerImageId,
        visibility: fields.visibility,
        ...pub,
        version: existing.version + 1,
        updatedBy: staff._id,
        updatedAt: now,
      })
      .where(eq(blogPosts.id, id));
    await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id }));
    return (await postById(tx, id, now))!;
  });
}

/**
 * Shows or hides a post (the list's toggle). It counts as an edit: the version moves on, so a form
 * opened before the toggle cannot put the old visibility back without noticing.
 */
export async function setBlogPostVisibility(app: FastifyInstance, staff: SessionUser, id: string, visibility: BlogVisibility): Promise<BlogPost> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const existing = await lockForEdit(tx, id, null);
    if (existing.visibility !== visibility) {
      await tx
        .update(blogPosts)
        .set({ visibility, version: existing.version + 1, updatedBy: staff._id, updatedAt: now })
        .where(eq(blogPosts.id, id));
      await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id }));
    }
    return (await postById(tx, id, now))!;
  });
}

/** Deletes a post for good; its images become orphans that the retention job removes. */
export async function deleteBlogPost(app: FastifyInstance, id: string): Promise<void> {
  await app.db.transaction(async (tx) => {
    const deleted = await tx.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id });
    if (!deleted.length) throw notFound(BLOG_MESSAGES.notFound);
    await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id }));
  });
}

/** Records an uploaded image whose renditions are already stored. */
export async function recordBlogImage(app: FastifyInstance, staff: SessionUser, image: StoredBlogImage, originalName: string) {
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

const RENDITION = /^(\d+)\.(avif|webp)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A stored rendition of a blog image by its public file name ({width}.{format}); otherwise not found. */
export async function findBlogImageRendition(
  app: FastifyInstance,
  imageId: string,
  file: string,
): Promise<{ key: string; format: BlogImageFormat; size: number }> {
  const match = RENDITION.exec(file);
  const width = Number(match?.[1]);
  if (!match || !UUID.test(imageId) || !(BLOG_IMAGE_WIDTHS as readonly number[]).includes(width)) throw notFound('Image not found');
  const format = match[2] as BlogImageFormat;
  const key = blogImageKey(imageId, width as BlogImageWidth, format);
  const stat = await app.storage.stat(key);
  if (!stat) throw notFound('Image not found');
  return { key, format, size: stat.size };
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

/**
 * Stores as published the scheduled posts whose time has come. They are already public without it
 * (effectiveStatus, and the public queries' own test); this keeps the table honest and records
 * the first publication, and tells the public cache. The version is kept: nothing an editor wrote changed.
 */
export async function publishDueScheduledPosts(app: FastifyInstance): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const due = await tx
      .update(blogPosts)
      .set({ status: 'published', firstPublishedAt: sql`coalesce(${blogPosts.firstPublishedAt}, ${blogPosts.publishAt})` })
      .where(and(eq(blogPosts.status, 'scheduled'), lte(blogPosts.publishAt, now)))
      .returning({ id: blogPosts.id });
    for (const { id } of due) await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id }));
    return due.length;
  });
}
