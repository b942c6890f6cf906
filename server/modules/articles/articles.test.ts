import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { blogImages, blogPosts } from '../../db/schema/blog.ts';
import { notifySql } from '../../events/pg-events.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { PAGE_CACHE_UNTIL_HEADER } from '../../../common/schemas/articles.ts';
import { PageCache, pageGzip, pageHtml } from '../../lib/page-cache.ts';
import { BLOG_CHANGED_CHANNEL } from '../../events/blog-events.ts';
import { loader as listLoader, meta as listMeta } from '../../../app/routes/site/articles.tsx';
import { loader as detailLoader, meta as detailMeta } from '../../../app/routes/site/article-detail.tsx';
import { loader as sitemapLoader } from '../../../app/routes/site/sitemap.ts';
import { loader as rssLoader } from '../../../app/routes/site/articles-rss.ts';
import { rootContentOf } from '../../../app/lib/site-content.ts';
import { SITE_CONTENT_CONTEXT_KEY } from '../../../common/site-content-context.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.events.ready();
});

afterAll(async () => {
  await t.close();
});

afterEach(async () => {
  await t.database.db.delete(blogPosts);
  await t.database.db.delete(blogImages);
  t.app.articles.invalidate();
});

type PostInput = Partial<typeof blogPosts.$inferInsert> & { slug: string };

/** Writes posts the way the blog module does: in a transaction that announces the change. */
async function writePosts(...posts: PostInput[]) {
  await t.database.db.transaction(async (tx) => {
    for (const p of posts) {
      await tx.insert(blogPosts).values({
        title: `Post ${p.slug}`,
        excerpt: `<p>Excerpt of ${p.slug} &amp; friends</p>`,
        content: '<p>Body text</p>',
        author: 'Chinedu Writer',
        category: 'Civil Engineering',
        status: 'published',
        visibility: 'visible',
        publishAt: new Date('2026-11-10T08:00:00Z'),
        ...p,
      });
      await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id: p.slug }));
    }
  });
}

/** Waits until the event has reached this process (LISTEN/NOTIFY is asynchronous). */
async function eventually(check: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met within 2 s');
}

const publicIds = async () => (await t.app.articles.listPage({ page: 1, category: null })).data.items.map((a) => a.id);
// The load context the server gives pages: the articles and the published website content (decision 289).
const context = () => ({ articles: t.app.articles, [SITE_CONTENT_CONTEXT_KEY]: t.app.publishedContent });
// A meta function's matches: the root loader's data carries the company profile.
const rootMatches = () => [{ id: 'root', data: rootContentOf(context()) }];
const req = (path: string) => new Request(`http://localhost${path}`);

describe('which posts visitors see', () => {
  it('shows published visible posts and hides drafts, hidden posts and scheduled posts before their time', async () => {
    const now = t.clock.now();
    await writePosts(
      { slug: 'published' },
      { slug: 'draft', status: 'draft', publishAt: null },
      { slug: 'hidden', visibility: 'hidden' },
      { slug: 'scheduled-later', status: 'scheduled', publishAt: new Date(now.getTime() + 60 * 60 * 1000) },
      { slug: 'scheduled-due', status: 'scheduled', publishAt: new Date(now.getTime() - 60 * 1000) },
    );
    await eventually(async () => (await publicIds()).includes('published'));
    expect((await publicIds()).sort()).toEqual(['published', 'scheduled-due']);
    for (const slug of ['draft', 'hidden', 'scheduled-later']) {
      expect((await t.app.articles.findArticle(slug)).data).toBeNull();
    }
  });

  it('publishes a scheduled post when its time comes, with no event (the fake clock passes its time)', async () => {
    const due = new Date(t.clock.now().getTime() + 3 * 60 * 1000);
    await writePosts({ slug: 'on-time', status: 'scheduled', publishAt: due });
    await eventually(async () => (await t.app.articles.listPage({ page: 1, category: null })).validUntil.getTime() === due.getTime());
    expect(await publicIds()).toEqual([]);
    t.clock.advance(3 * 60 * 1000 - 1);
    expect(await publicIds()).toEqual([]);
    t.clock.advance(1);
    expect(await publicIds()).toEqual(['on-time']);
    expect((await t.app.articles.findArticle('on-time')).data?.title).toBe('Post on-time');
  });

  it("reads again on 'blog_changed': a post hidden by staff disappears, and the rendered pages are dropped", async () => {
    await writePosts({ slug: 'soon-hidden' });
    await eventually(async () => (await publicIds()).includes('soon-hidden'));
    t.app.pageCache.set('/articles', { status: 200, html: '<p>old</p>', until: new Date(t.clock.now().getTime() + 60_000) });
    expect(t.app.pageCache.size).toBe(1);

    await t.database.db.transaction(async (tx) => {
      await tx.update(blogPosts).set({ visibility: 'hidden' });
      await tx.execute(notifySql(BLOG_CHANGED_CHANNEL, { id: 'soon-hidden' }));
    });
    // The notification arrives on its own connection: a read may see the hidden post gone (from the
    // database) a moment before the event drops the rendered pages, so wait for both (2 s at most).
    await eventually(async () => !(await publicIds()).includes('soon-hidden') && t.app.pageCache.size === 0);
    expect(t.app.pageCache.size).toBe(0);
  });

  it('sanitises post bodies again when rendering: script, event handlers and javascript: links never reach the page', async () => {
    await writePosts({
      slug: 'hostile',
      content:
        '<h2 onmouseover="alert(1)">Heading</h2><script>alert(2)</script><img src="x" onerror="alert(3)"><a href="javascript:alert(4)">click</a><a href="https://example.test/" target="_blank">ok</a><iframe src="javascript:alert(5)"></iframe>',
    });
    await eventually(async () => (await publicIds()).includes('hostile'));
    const html = (await t.app.articles.findArticle('hostile')).data!.bodyHtml;
    expect(html).toContain('<h2>Heading</h2>');
    expect(html).toContain('<a href="https://example.test/" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(html).not.toMatch(/script|onmouseover|onerror|javascript:|alert/i);
  });

  it("gives company posts the company's name as source, the excerpt as plain text, and the banner's renditions", async () => {
    const [image] = await t.database.db
      .insert(blogImages)
      .values({
        originalName: 'site.jpg',
        width: 1600,
        height: 900,
        variants: [480, 960, 1600].flatMap((w) => (['avif', 'webp'] as const).map((format) => ({ format, width: w, height: (w * 9) / 16, key: `k-${w}.${format}`, size: 1000 }))),
      })
      .returning();
    await writePosts({ slug: 'with-banner', bannerImageId: image.id });
    await eventually(async () => (await publicIds()).includes('with-banner'));
    const card = (await t.app.articles.listPage({ page: 1, category: null })).data.items[0];
    expect(card.source).toBe('Kora Delta Engineering & Logistics Ltd');
    expect(card.description).toBe('Excerpt of with-banner & friends');
    expect(card.image).toEqual({
      kind: 'own',
      avifSrcSet: `/api/blog/images/${image.id}/480.avif 480w, /api/blog/images/${image.id}/960.avif 960w, /api/blog/images/${image.id}/1600.avif 1600w`,
      webpSrcSet: `/api/blog/images/${image.id}/480.webp 480w, /api/blog/images/${image.id}/960.webp 960w, /api/blog/images/${image.id}/1600.webp 1600w`,
      src: `/api/blog/images/${image.id}/960.webp`,
      width: 960,
      height: 540,
    });
  });
});

describe('the pages, the sitemap and the feed', () => {
  it('answers an unknown, hidden or draft article with a 404 and a found one with its meta tags and JSON-LD', async () => {
    await writePosts({ slug: 'visible-one', title: 'Bridge deck poured <fast>' }, { slug: 'hidden-one', visibility: 'hidden' }, { slug: 'draft-one', status: 'draft' });
    await eventually(async () => (await publicIds()).includes('visible-one'));
    for (const id of ['no-such-article', 'hidden-one', 'draft-one']) {
      const res = await detailLoader({ params: { id }, context: context(), request: req(`/articles/${id}`) } as never);
      expect(res.init?.status).toBe(404);
      expect(res.data).toEqual({ state: 'not-found' });
    }
    const found = await detailLoader({ params: { id: 'visible-one' }, context: context(), request: req('/articles/visible-one') } as never);
    expect(found.init?.status ?? 200).toBe(200);
    expect(new Headers(found.init?.headers).get(PAGE_CACHE_UNTIL_HEADER)).toBeTruthy();
    const tags = detailMeta({ loaderData: found.data, params: { id: 'visible-one' }, matches: rootMatches() } as never);
    expect(tags).toEqual(
      expect.arrayContaining([
        { title: 'Bridge deck poured <fast> | Kora Delta' },
        { name: 'description', content: 'Excerpt of visible-one & friends' },
        { tagName: 'link', rel: 'canonical', href: 'https://www.koradelta.example/articles/visible-one' },
        { property: 'og:type', content: 'article' },
        { property: 'og:url', content: 'https://www.koradelta.example/articles/visible-one' },
        { name: 'twitter:title', content: 'Bridge deck poured <fast> | Kora Delta' },
      ]),
    );
    const ld = tags.find((m) => 'script:ld+json' in m) as { 'script:ld+json': Record<string, unknown> };
    expect(ld['script:ld+json']).toMatchObject({
      '@type': 'Article',
      headline: 'Bridge deck poured <fast>',
      datePublished: '2026-11-10T08:00:00.000Z',
      author: { '@type': 'Person', name: 'Chinedu Writer' },
      publisher: { name: 'Kora Delta Engineering & Logistics Ltd' },
    });
  });

  it('gives the list a 404 past its last page and a cache time that ends when the next scheduled post falls due', async () => {
    const due = new Date(t.clock.now().getTime() + 5 * 60 * 1000);
    await writePosts({ slug: 'a' }, { slug: 'later', status: 'scheduled', publishAt: due });
    await eventually(async () => (await publicIds()).includes('a'));
    const ok = await listLoader({ request: req('/articles?category=Civil%20Engineering'), context: context(), params: {} } as never);
    expect(ok.init?.status).toBe(200);
    expect(new Headers(ok.init?.headers).get(PAGE_CACHE_UNTIL_HEADER)).toBe(due.toISOString());
    expect(ok.data).toMatchObject({ state: 'ok', page: { category: 'Civil Engineering', total: 1 } });
    const meta = listMeta({ loaderData: ok.data, matches: rootMatches() } as never);
    expect(meta).toEqual(expect.arrayContaining([{ tagName: 'link', rel: 'canonical', href: 'https://www.koradelta.example/articles?category=Civil+Engineering' }]));
    const past = await listLoader({ request: req('/articles?page=3'), context: context(), params: {} } as never);
    expect(past.init?.status).toBe(404);
  });

  it('lists public posts in the sitemap and the RSS feed, and never drafts, hidden or future posts', async () => {
    await writePosts(
      { slug: 'in-both', title: 'Jetty handed over & opened', updatedAt: new Date('2026-11-12T10:00:00Z') },
      { slug: 'secret-draft', status: 'draft' },
      { slug: 'secret-hidden', visibility: 'hidden' },
      { slug: 'secret-future', status: 'scheduled', publishAt: new Date(t.clock.now().getTime() + 86_400_000) },
    );
    await eventually(async () => (await publicIds()).includes('in-both'));
    const sitemap = await (await sitemapLoader({ context: context() } as never)).text();
    expect(sitemap).toContain('<url><loc>https://www.koradelta.example/articles/in-both</loc><lastmod>2026-11-12</lastmod>');
    expect(sitemap).toContain('<loc>https://www.koradelta.example/about</loc>');
    expect(sitemap).not.toContain('secret');

    const res = await rssLoader({ context: context() } as never);
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const rss = await res.text();
    expect(rss).toContain('<rss version="2.0"');
    expect(rss).toContain('<title><![CDATA[Jetty handed over & opened]]></title>');
    expect(rss).toContain('<link>https://www.koradelta.example/articles/in-both</link>');
    expect(rss).not.toContain('secret');
  });
});

describe('the rendered-page cache', () => {
  it('serves a page until its time, forgets it after, keeps at most its limit, and empties on clear', () => {
    const cache = new PageCache();
    const now = new Date('2026-11-22T09:00:00Z');
    cache.set('/articles', { status: 200, html: '<p>hello</p>', until: new Date(now.getTime() + 1000) });
    const page = cache.get('/articles', now);
    expect(pageHtml(page!, 'n').toString()).toBe('<p>hello</p>');
    expect(gunzipSync(pageGzip(page!, 'n')).toString()).toBe('<p>hello</p>');
    expect(cache.get('/articles', new Date(now.getTime() + 1000))).toBeUndefined();
    for (let i = 0; i < 600; i++) cache.set(`/articles?page=${i}`, { status: 200, html: 'x', until: new Date(now.getTime() + 1000) });
    expect(cache.size).toBe(500);
    expect(cache.get('/articles?page=0', now)).toBeUndefined();
    expect(cache.get('/articles?page=599', now)).toBeDefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('does not keep a page rendered before a change that arrived while it was rendering', () => {
    const cache = new PageCache();
    const until = new Date('2026-11-22T10:00:00Z');
    const before = cache.generation;
    cache.clear(); // a 'blog_changed' event lands while the page renders
    const sent = cache.set('/articles', { status: 200, html: '<p>stale</p>', until, generation: before });
    expect(pageHtml(sent, 'n').toString()).toBe('<p>stale</p>');
    expect(cache.size).toBe(0);
    cache.set('/articles', { status: 200, html: '<p>fresh</p>', until, generation: cache.generation });
    expect(cache.size).toBe(1);
  });
});
