import { pick, recordAudit, SYSTEM_ACTOR, type AuditContext } from '../audit/audit.ts';
import { and, count, desc, eq, ilike, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, notFound } from '../../../common/errors.ts';
import {
  BLOG_LIMITS,
  BLOG_LIST_PAGE_SIZE,
  BLOG_MESSAGES,
  slugFromTitle,
  type BlogPost,
  type BlogPostFieldsParsed,
  type BlogPostSummary,
  type BlogStatus,
  type BlogVisibility,
} from '../../../common/schemas/blog.ts';
import { blogImages, blogPosts } from '../../db/schema/blog.ts';
import { users } from '../../db/schema/users.ts';
import type { Db } from '../../db/client.ts';
import { publishBlogChange } from '../../events/blog-events.ts';
import { htmlToText, RELATIVE_EXPLOIT_MESSAGE, sanitizeArticleHtml, UnsafeArticleHtmlError } from '../../lib/article-html.ts';
import type { SessionUser } from '../auth/sessions.service.ts';

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
  const { id: _id, title, slug, author, category, visibility, version } = row;
  const times = { publishAt: iso(row.publishAt), createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
  return { _id, title, slug, author, category, status: effectiveStatus(row, now), visibility, ...times, version };
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

/** Who made a post or image: a signed-in staff member, or nobody (the sample posts of a first start). */
type Maker = Pick<SessionUser, '_id'> | { _id: null };

/** The columns the editor's form sets, on create and on save alike. */
function formColumns(fields: BlogPostFieldsParsed, slug: string, content: string) {
  const { title, excerpt, author, category, bannerImageId, visibility } = fields;
  return { title, slug, excerpt, content, author, category, bannerImageId, visibility };
}

/** Creates a post; its slug comes from the title unless given, with a suffix on a clash. */
export async function createBlogPost(app: FastifyInstance, staff: Maker, fields: BlogPostFieldsParsed, who: AuditContext = SYSTEM_ACTOR): Promise<BlogPost> {
  const now = app.clock.now();
  const content = cleanContent(fields.content);
  const pub = publication(fields, null, now);
  return app.db.transaction(async (tx) => {
    await assertBannerExists(tx, fields.bannerImageId);
    const slug = await freeSlug(tx, fields.slug || slugFromTitle(fields.title), null);
    const [row] = await tx
      .insert(blogPosts)
      .values({
        ...formColumns(fields, slug, content),
        ...pub,
        createdBy: staff._id,
        updatedBy: staff._id,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: blogPosts.id });
    await publishBlogChange(tx, row.id);
    await recordAudit(tx, who, { action: 'blog.create', entityId: row.id, after: { ...formColumns(fields, slug, content), ...pub } });
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
  who: AuditContext,
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
    const set = { ...formColumns(fields, slug, content), ...pub };
    await tx
      .update(blogPosts)
      .set({
        ...set,
        version: existing.version + 1,
        updatedBy: staff._id,
        updatedAt: now,
      })
      .where(eq(blogPosts.id, id));
    await publishBlogChange(tx, id);
    await recordAudit(tx, who, { action: 'blog.update', entityId: id, before: pick(existing, set), after: set });
    return (await postById(tx, id, now))!;
  });
}

/**
 * Shows or hides a post (the list's toggle). It counts as an edit: the version moves on, so a form
 * opened before the toggle cannot put the old visibility back without noticing.
 */
export async function setBlogPostVisibility(app: FastifyInstance, staff: SessionUser, id: string, visibility: BlogVisibility, who: AuditContext): Promise<BlogPost> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const existing = await lockForEdit(tx, id, null);
    if (existing.visibility !== visibility) {
      await tx
        .update(blogPosts)
        .set({ visibility, version: existing.version + 1, updatedBy: staff._id, updatedAt: now })
        .where(eq(blogPosts.id, id));
      await publishBlogChange(tx, id);
      await recordAudit(tx, who, { action: 'blog.visibility', entityId: id, before: { visibility: existing.visibility }, after: { visibility } });
    }
    return (await postById(tx, id, now))!;
  });
}

/** Deletes a post for good; its images become orphans that the retention job removes. */
export async function deleteBlogPost(app: FastifyInstance, id: string, who: AuditContext = SYSTEM_ACTOR): Promise<void> {
  await app.db.transaction(async (tx) => {
    const deleted = await tx.delete(blogPosts).where(eq(blogPosts.id, id)).returning({ id: blogPosts.id, title: blogPosts.title, slug: blogPosts.slug, status: blogPosts.status });
    if (!deleted.length) throw notFound(BLOG_MESSAGES.notFound);
    await recordAudit(tx, who, { action: 'blog.delete', entityId: id, before: deleted[0] });
    await publishBlogChange(tx, id);
  });
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
    for (const { id } of due) await publishBlogChange(tx, id);
    for (const { id } of due) await recordAudit(tx, SYSTEM_ACTOR, { action: 'blog.publish', entityId: id, before: { status: 'scheduled' }, after: { status: 'published' } });
    return due.length;
  });
}
