import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BLOG_LIST_PAGE_SIZE, BLOG_MESSAGES, type BlogPost } from '../../../common/schemas/blog.ts';
import { blogPosts } from '../../db/schema/blog.ts';
import { pruneOldRecords } from '../../lib/retention.ts';
import {
  admin, create, created, events, eventsFor, eventually, freshSession, getPost, headers, HOUR, list, postCount, t, update, setUpBlogAdmin, valid,
} from '../../../tests/helpers/blog.ts';

setUpBlogAdmin();

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
