import { storedFiles as filesUnder } from '../../../tests/helpers/uploads.ts';
import { crc32 } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BLOG_LIST_PAGE_SIZE, BLOG_MESSAGES, blogImageUrl, type BlogPost } from '../../../common/schemas/blog.ts';
import { blogImages, blogPosts } from '../../db/schema/blog.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { pruneOldRecords } from '../../lib/retention.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { sampleJpeg, samplePdf, samplePng } from '../../../tests/helpers/sample-files.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { BLOG_IMAGE_UPLOAD_RATE_LIMIT } from './blog.routes.ts';
import { BLOG_CHANGED_CHANNEL } from '../../events/blog-events.ts';

const PUBLIC_URL = 'https://www.site.example';
const HOUR = 60 * 60_000;

let t: TestApp;
let admin: { id: string; name: string };
let headers: { cookie: string; origin: string };
const events: unknown[] = [];

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  admin = await createUser(t, { role: 'admin', name: 'Amaka Staff' });
  headers = { cookie: (await signIn(t, admin, 'admin')).cookie, origin: PUBLIC_URL };
  t.app.events.subscribe(BLOG_CHANGED_CHANNEL, (e) => {
    if (e.kind === 'event') events.push(e.payload);
  });
  await t.app.events.ready();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.database.db.delete(blogPosts);
  await t.database.db.delete(blogImages);
  events.length = 0;
  await freshSession();
});

/** Tests move the clock by hours; an admin session lasts two idle hours, so tests sign in afresh. */
async function freshSession() {
  headers = { cookie: (await signIn(t, admin, 'admin')).cookie, origin: PUBLIC_URL };
}

const valid = (over: Record<string, unknown> = {}) => ({
  title: 'Laying the new jetty piles',
  author: 'Site Team',
  category: 'Marine & Logistics',
  excerpt: 'How the crew drove forty piles in a week.',
  content: '<h2>The plan</h2><p>We <strong>drove</strong> forty piles.</p>',
  ...over,
});

const create = (payload: object, h: Record<string, string> = headers) => t.app.inject({ method: 'POST', url: '/api/blog/posts', headers: h, payload });
const update = (id: string, payload: object) => t.app.inject({ method: 'PUT', url: `/api/blog/posts/${id}`, headers, payload });
const getPost = (id: string) => t.app.inject({ method: 'GET', url: `/api/blog/posts/${id}`, headers });
const list = (query = '') => t.app.inject({ method: 'GET', url: `/api/blog/posts${query}`, headers });
const postCount = async () => (await t.database.db.select({ n: count() }).from(blogPosts))[0].n;
const imageCount = async () => (await t.database.db.select({ n: count() }).from(blogImages))[0].n;

async function created(over: Record<string, unknown> = {}): Promise<BlogPost> {
  const res = await create(valid(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().post;
}

/** Files under the uploads folder (renditions), recursively. */
const storedFiles = () => filesUnder(t.uploadsDir);

/** How many change events named this post (creation included). */
const eventsFor = (id: string) => events.filter((e) => (e as { id: string }).id === id).length;

async function eventually(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe('creating a post', () => {
  it('stores it with a slug from the title, as a draft by default, and tells every process', async () => {
    const res = await create(valid());
    expect(res.statusCode).toBe(201);
    const post = res.json().post as BlogPost;
    expect(post).toMatchObject({
      title: 'Laying the new jetty piles',
      slug: 'laying-the-new-jetty-piles',
      status: 'draft',
      visibility: 'visible',
      publishAt: null,
      version: 1,
      updatedBy: { _id: admin.id, name: 'Amaka Staff' },
      content: '<h2>The plan</h2><p>We <strong>drove</strong> forty piles.</p>',
    });
    expect(await eventually(() => events.some((e) => (e as { id: string }).id === post._id))).toBe(true);
  });

  it('strips script, event handlers and javascript: links from the content when saving', async () => {
    const post = await created({
      content:
        '<p onclick="steal()">Hello <a href="javascript:alert(1)">click</a> <a href="https://example.org" target="_blank" rel="opener">ok</a></p><script>alert(1)</script><img src="x" onerror="alert(2)"><iframe src="javascript:alert(3)"></iframe>',
    });
    expect(post.content).not.toMatch(/script|onclick|onerror|javascript:/i);
    expect(post.content).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">ok</a>');
    const [row] = await t.database.db.select({ content: blogPosts.content }).from(blogPosts).where(eq(blogPosts.id, post._id));
    expect(row.content).toBe(post.content);
  });

  it("refuses a 'relative:' URL with the specification's message and stores nothing", async () => {
    const res = await create(valid({ content: '<p><a href="relative:../../etc">x</a></p>' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED', message: 'relative: exploit attempt' });
    expect(await postCount()).toBe(0);
  });

  it.each([
    ['title', { title: '' }, 'Please fill in the title field'],
    ['author', { author: '   ' }, 'Please fill in the author field'],
    ['excerpt', { excerpt: undefined }, 'excerpt'],
    ['content', { content: '' }, 'Please fill in the content field'],
    ['content with nothing left after sanitising', { content: '<script>alert(1)</script>' }, 'Please fill in the content field'],
    ['category', { category: 'Gardening' }, 'Please choose one of the categories'],
    ['title length', { title: 'x'.repeat(201) }, 'The title is too long (at most 200 characters)'],
    ['slug', { slug: 'Not A Slug!' }, 'The slug may hold only lower-case letters'],
    ['schedule date', { status: 'scheduled' }, BLOG_MESSAGES.scheduleNeedsDate],
    ['future published date', { status: 'published', publishAt: '2099-01-01T00:00:00Z' }, BLOG_MESSAGES.publishedInFuture],
    ['banner', { bannerImageId: '2f1a6c0e-8d53-4c1e-9a55-0d9a6f0f1b2c' }, BLOG_MESSAGES.bannerMissing],
  ])('refuses a bad %s with a clear 400 and stores nothing', async (_label, over, message) => {
    const res = await create(valid(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().success).toBe(false);
    expect(res.json().message).toContain(message);
    expect(await postCount()).toBe(0);
  });

  it('refuses a 30 MB body with 413 and a message saying what to do', async () => {
    const res = await create(valid({ content: `<p>${'a'.repeat(30 * 1024 * 1024)}</p>` }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', message: BLOG_MESSAGES.bodyTooLarge });
    expect(await postCount()).toBe(0);
  });
});

describe('the preview', () => {
  it('shows the content through the same sanitiser as a save, storing nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/blog/preview',
      headers,
      payload: { content: '<h2 onclick="x()">Heading</h2><p><strong>Bold</strong> <a href="javascript:alert(1)">bad</a></p><script>alert(1)</script>' },
    });
    expect(res.json()).toEqual({ success: true, html: '<h2>Heading</h2><p><strong>Bold</strong> <a>bad</a></p>' });
    const relative = await t.app.inject({ method: 'POST', url: '/api/blog/preview', headers, payload: { content: '<img src="relative:x">' } });
    expect(relative.statusCode).toBe(400);
    expect(relative.json().message).toBe('relative: exploit attempt');
    expect(await postCount()).toBe(0);
  });
});

describe('slugs', () => {
  it('gives a clashing title the next free suffix', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await created({ title: 'Safety week at the yard' })).slug);
    expect(slugs).toEqual(['safety-week-at-the-yard', 'safety-week-at-the-yard-2', 'safety-week-at-the-yard-3']);
    // An edited slug that clashes gets a suffix too.
    expect((await created({ title: 'Other', slug: 'safety-week-at-the-yard' })).slug).toBe('safety-week-at-the-yard-4');
  });

  it('keeps slugs unique when posts with one title are saved at the same moment', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => create(valid({ title: 'Concurrent launch' }))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    const slugs = answers.map((a) => a.json().post.slug as string).sort();
    expect(new Set(slugs).size).toBe(6);
    expect(slugs).toContain('concurrent-launch');
    expect(slugs).toContain('concurrent-launch-6');
  });

  it('follows edits while a draft, then stays once published', async () => {
    const post = await created({ title: 'First working title' });
    let res = await update(post._id, { ...valid({ title: 'Better title' }), version: 1 });
    expect(res.json().post.slug).toBe('better-title');
    res = await update(post._id, { ...valid({ title: 'Better title', slug: 'chosen-by-hand' }), version: 2 });
    expect(res.json().post.slug).toBe('chosen-by-hand');
    res = await update(post._id, { ...valid({ title: 'Better title', slug: 'chosen-by-hand', status: 'published' }), version: 3 });
    expect(res.json().post).toMatchObject({ slug: 'chosen-by-hand', status: 'published', publishAt: t.clock.now().toISOString() });
    expect(res.json().post.firstPublishedAt).toBe(t.clock.now().toISOString());

    // A new title, or an empty slug, leaves it alone; a different slug is refused.
    res = await update(post._id, { ...valid({ title: 'Renamed after publishing', status: 'published' }), version: 4 });
    expect(res.json().post.slug).toBe('chosen-by-hand');
    res = await update(post._id, { ...valid({ slug: 'new-address', status: 'published' }), version: 5 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(BLOG_MESSAGES.slugLocked);
    // Back to draft: the address still stays, since links to it exist.
    res = await update(post._id, { ...valid({ title: 'Unpublished again' }), version: 5 });
    expect(res.json().post).toMatchObject({ slug: 'chosen-by-hand', status: 'draft' });
  });
});

describe('editing', () => {
  it('refuses the second of two saves made from the same version, keeping the first', async () => {
    const post = await created();
    const first = await update(post._id, { ...valid({ title: 'Edited by Ada' }), version: 1 });
    expect(first.statusCode).toBe(200);
    expect(first.json().post.version).toBe(2);
    const second = await update(post._id, { ...valid({ title: 'Edited by Bayo' }), version: 1 });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ success: false, code: 'CONFLICT', message: BLOG_MESSAGES.versionConflict });
    expect((await getPost(post._id)).json().post).toMatchObject({ title: 'Edited by Ada', version: 2 });
  });

  it('lets only one of two simultaneous saves from one version through', async () => {
    const post = await created();
    const answers = await Promise.all([
      update(post._id, { ...valid({ title: 'One' }), version: 1 }),
      update(post._id, { ...valid({ title: 'Two' }), version: 1 }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('answers 404 for a missing post and 400 for a save without a version', async () => {
    const missing = await update('2f1a6c0e-8d53-4c1e-9a55-0d9a6f0f1b2c', { ...valid(), version: 1 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(BLOG_MESSAGES.notFound);
    const post = await created();
    expect((await update(post._id, valid())).statusCode).toBe(400);
  });

  it('schedules a post: it shows as published once its time has come, and retention records it', async () => {
    const at = new Date(t.clock.now().getTime() + 2 * HOUR).toISOString();
    const post = await created({ status: 'scheduled', publishAt: at });
    expect(post).toMatchObject({ status: 'scheduled', publishAt: at, firstPublishedAt: null });
    t.clock.advance(3 * HOUR);
    await freshSession();
    expect((await getPost(post._id)).json().post.status).toBe('published');
    const counts = await pruneOldRecords(t.app);
    expect(counts.dueScheduledPosts).toBe(1);
    const [row] = await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, post._id));
    expect(row).toMatchObject({ status: 'published', version: 1 });
    expect(row.firstPublishedAt?.toISOString()).toBe(at);
    expect(await eventually(() => eventsFor(post._id) === 2)).toBe(true);
  });

  it('stores a scheduled post whose time is already past as published', async () => {
    const post = await created({ status: 'scheduled', publishAt: new Date(t.clock.now().getTime() - HOUR).toISOString() });
    const [row] = await t.database.db.select().from(blogPosts).where(eq(blogPosts.id, post._id));
    expect(row.status).toBe('published');
    expect(post.firstPublishedAt).not.toBeNull();
  });
});

describe('visibility and delete', () => {
  it('toggles visibility, moving the version on and notifying', async () => {
    const post = await created();
    const res = await t.app.inject({ method: 'PUT', url: `/api/blog/posts/${post._id}/visibility`, headers, payload: { visibility: 'hidden' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().post).toMatchObject({ visibility: 'hidden', version: 2 });
    expect(await eventually(() => eventsFor(post._id) === 2)).toBe(true);
    // The form opened before the toggle cannot silently put the old visibility back.
    expect((await update(post._id, { ...valid(), version: 1 })).statusCode).toBe(409);
    const bad = await t.app.inject({ method: 'PUT', url: `/api/blog/posts/${post._id}/visibility`, headers, payload: { visibility: 'invisible' } });
    expect(bad.statusCode).toBe(400);
  });

  it('deletes a post for good and notifies; a second delete is 404', async () => {
    const post = await created();
    const res = await t.app.inject({ method: 'DELETE', url: `/api/blog/posts/${post._id}`, headers });
    expect(res.json()).toEqual({ success: true, message: BLOG_MESSAGES.deleted.description });
    expect(await postCount()).toBe(0);
    expect(await eventually(() => eventsFor(post._id) === 2)).toBe(true);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/blog/posts/${post._id}`, headers })).statusCode).toBe(404);
    expect((await getPost(post._id)).statusCode).toBe(404);
  });
});

describe('the staff list', () => {
  it('pages newest change first and searches titles', async () => {
    for (let i = 1; i <= BLOG_LIST_PAGE_SIZE + 3; i++) {
      await created({ title: i % 5 === 0 ? `Pipeline 100% check ${i}` : `Routine update ${i}` });
      t.clock.advance(60_000);
    }
    const first = (await list()).json();
    expect(first).toMatchObject({ total: BLOG_LIST_PAGE_SIZE + 3, page: 1, pageSize: BLOG_LIST_PAGE_SIZE });
    expect(first.posts).toHaveLength(BLOG_LIST_PAGE_SIZE);
    expect(first.posts[0].title).toBe(`Routine update ${BLOG_LIST_PAGE_SIZE + 3}`);
    expect(first.posts[0]).not.toHaveProperty('content');
    expect((await list('?page=2')).json().posts).toHaveLength(3);
    const found = (await list(`?q=${encodeURIComponent('pipeline 100%')}`)).json();
    expect(found.total).toBe(4);
    expect(found.posts.every((p: { title: string }) => p.title.startsWith('Pipeline 100% check'))).toBe(true);
    // % and _ are letters in a search, not wildcards.
    expect((await list('?q=%25')).json().total).toBe(4);
    expect((await list('?q=_')).json().total).toBe(0);
    expect((await list('?page=0')).statusCode).toBe(400);
  });
});

// ---- images ----

function upload(file: { filename: string; contentType: string; data: Buffer } | null, field = 'file') {
  const { payload, headers: h } = multipartBody({}, file && { ...file, field });
  return t.app.inject({ method: 'POST', url: '/api/blog/images', headers: { ...headers, ...h }, payload });
}

/** A PNG whose header claims a huge canvas (decoding it would need gigabytes): a "pixel bomb". */
async function pixelBomb(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await samplePng(1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

describe('image uploads', () => {
  it('stores a JPEG as AVIF and WebP renditions without its metadata, served publicly and cached', async () => {
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 10, g: 90, b: 160 } } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-owner', Make: 'PhoneCam' } } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await upload({ filename: 'jetty.jpg', contentType: 'image/jpeg', data: jpeg });
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json().image;
    expect(image).toMatchObject({ width: 1200, height: 800 });
    expect(await imageCount()).toBe(1);

    for (const [width, format, expectedWidth] of [[480, 'avif', 480], [960, 'webp', 960], [1600, 'webp', 1200]] as const) {
      const got = await t.app.inject({ method: 'GET', url: blogImageUrl(image._id, width, format) });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(`image/${format}`);
      expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(got.rawPayload).metadata();
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
      expect(meta.width).toBe(expectedWidth);
      expect(meta.exif).toBeUndefined();
    }
    expect(storedFiles()).toHaveLength(6);
  });

  it('accepts a PNG', async () => {
    const res = await upload({ filename: 'plan.png', contentType: 'image/png', data: await samplePng(300, 200) });
    expect(res.statusCode).toBe(201);
    expect(res.json().image).toMatchObject({ width: 300, height: 200 });
  });

  it.each([
    ['a non-image', { filename: 'notes.txt', contentType: 'text/plain', data: Buffer.from('just some text') }, 415, 'is not a JPEG, PNG, WebP or AVIF image'],
    ['a PDF calling itself a JPEG', { filename: 'banner.jpg', contentType: 'image/jpeg', data: samplePdf() }, 415, 'banner.jpg is not a JPEG, PNG, WebP or AVIF image'],
    ['an 11 MB file', { filename: 'huge.jpg', contentType: 'image/jpeg', data: Buffer.alloc(11 * 1024 * 1024, 0xff) }, 413, 'huge.jpg is larger than 10 MB'],
  ])('refuses %s and stores nothing', async (_label, file, status, message) => {
    const filesBefore = storedFiles();
    const res = await upload(file);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
    expect(await imageCount()).toBe(0);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('refuses a pixel bomb before decoding it, and a truncated image', async () => {
    const filesBefore = storedFiles();
    const bomb = await upload({ filename: 'bomb.png', contentType: 'image/png', data: await pixelBomb(30_000, 30_000) });
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().message).toBe(
      'bomb.png is too large an image to open safely (30,000 × 30,000 pixels). Blog images may have at most 10,000 pixels a side and 25 megapixels. Please resize it (1,600 pixels wide is enough) and upload it again.',
    );
    const jpeg = await sampleJpeg(200, 100);
    const broken = await upload({ filename: 'broken.jpg', contentType: 'image/jpeg', data: jpeg.subarray(0, jpeg.length / 2) });
    expect(broken.statusCode).toBe(415);
    expect(await imageCount()).toBe(0);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('refuses a request without a file or with the file in another field', async () => {
    expect((await upload(null)).json().message).toBe('Please choose an image file');
    const other = await upload({ filename: 'a.png', contentType: 'image/png', data: await samplePng() }, 'banner');
    expect(other.statusCode).toBe(400);
    expect(await imageCount()).toBe(0);
  });

  it('limits uploads per staff member per hour', async () => {
    const other = await createUser(t, { role: 'admin' });
    const otherHeaders = { cookie: (await signIn(t, other, 'admin')).cookie, origin: PUBLIC_URL };
    await hitRateLimit(t.app, BLOG_IMAGE_UPLOAD_RATE_LIMIT, other.id, BLOG_IMAGE_UPLOAD_RATE_LIMIT.limit);
    const { payload, headers: h } = multipartBody({}, { field: 'file', filename: 'a.png', contentType: 'image/png', data: await samplePng() });
    const res = await t.app.inject({ method: 'POST', url: '/api/blog/images', headers: { ...otherHeaders, ...h }, payload });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many image uploads\. Please try again in /);
    expect(res.headers['retry-after']).toBeDefined();
    expect(await imageCount()).toBe(0);
  });

  it('answers 404 for unknown images and rendition names', async () => {
    const res = await upload({ filename: 'plan.png', contentType: 'image/png', data: await samplePng() });
    const id = res.json().image._id;
    for (const url of [
      `/api/blog/images/2f1a6c0e-8d53-4c1e-9a55-0d9a6f0f1b2c/960.webp`,
      `/api/blog/images/${id}/961.webp`,
      `/api/blog/images/${id}/960.png`,
      `/api/blog/images/${id}/..%2F..%2Fetc.webp`,
      `/api/blog/images/not-an-id/960.webp`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('lets the retention job remove images no post took up after a day, keeping banners and pictures in the text', async () => {
    const filesBefore = storedFiles().length;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload({ filename: `p${i}.png`, contentType: 'image/png', data: await samplePng(40 + i, 30) })).json().image._id);
    const [banner, inline, orphan] = ids;
    await created({ bannerImageId: banner, content: `<p>Look:</p><img src="${blogImageUrl(inline, 960, 'webp')}" alt="A crane">` });
    t.clock.advance(23 * HOUR);
    expect((await pruneOldRecords(t.app)).orphanBlogImages).toBe(0);
    t.clock.advance(2 * HOUR);
    expect((await pruneOldRecords(t.app)).orphanBlogImages).toBe(1);
    const left = (await t.database.db.select({ id: blogImages.id }).from(blogImages)).map((r) => r.id).sort();
    expect(left).toEqual([banner, inline].sort());
    expect(storedFiles().some((f) => f.includes(orphan))).toBe(false);
    expect(storedFiles()).toHaveLength(filesBefore + 12);
    expect((await t.app.inject({ method: 'GET', url: blogImageUrl(orphan, 480, 'webp') })).statusCode).toBe(404);
  });
});
