import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../app.ts';
import { createDatabase } from '../../db/client.ts';
import { newsCache } from '../../db/schema/news.ts';
import { blogPosts } from '../../db/schema/blog.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { sampleNewsArticle, startFakeNewsServer, type FakeNewsServer } from '../../../tests/helpers/fake-news-server.ts';
import { ARTICLES_TEXT, NEWS_CACHE_TTL_MS, NEWS_RETRY_AFTER_MS, newsArticleId } from '../../../common/schemas/articles.ts';
import { NEWS_CACHE_KEY } from './news.service.ts';

let news: FakeNewsServer;
let t: TestApp;

beforeAll(async () => {
  news = await startFakeNewsServer();
  t = await createTestApp({ NEWS_API_KEY: 'test-news-key', NEWS_API_URL: news.url, NEWS_API_TIMEOUT_MS: '400' });
});

afterAll(async () => {
  await t.close();
  await news.close();
});

afterEach(async () => {
  await t.app.articles.settled();
  await t.database.db.delete(newsCache);
  await t.database.db.delete(blogPosts);
  t.app.articles.invalidate();
  news.requests.length = 0;
  news.setMode({ kind: 'ok', articles: [] });
});

async function addPost(slug: string, publishAt: Date) {
  await t.database.db.insert(blogPosts).values({
    title: `Company post ${slug}`,
    slug,
    excerpt: 'What we did this month',
    content: '<p>Body</p>',
    author: 'Staff Writer',
    category: 'Safety',
    status: 'published',
    visibility: 'visible',
    publishAt,
    firstPublishedAt: publishAt,
  });
  t.app.articles.invalidate();
}

const list = () => t.app.articles.listPage({ page: 1, category: null }).then((r) => r.data);

describe('industry news fetched by the server', () => {
  it("asks the everything-search endpoint with the specification's query, the key in a header, and caches the answer in PostgreSQL", async () => {
    news.setMode({ kind: 'ok', articles: [sampleNewsArticle(1), sampleNewsArticle(2)] });
    const page = await list();
    expect(news.requests).toHaveLength(1);
    expect(news.requests[0].query).toEqual({ q: 'construction OR engineering', sortBy: 'publishedAt', language: 'en', pageSize: '50' });
    expect(news.requests[0].apiKey).toBe('test-news-key');
    expect(page.items.map((a) => a.title)).toEqual(['Industry story number 1', 'Industry story number 2']);
    const first = page.items[0];
    expect(first.id).toBe(newsArticleId('https://news.example.test/stories/1?ref=feed'));
    expect(first.id).toBe('https---news-example-test-stories-1-ref-feed');
    expect(first.description).toBe('Summary of story 1 & more');
    expect(first.source).toBe('Site Weekly');
    expect(first.image).toEqual({ kind: 'remote', src: 'https://images.example.test/1.jpg' });
    const [row] = await t.database.db.select().from(newsCache).where(eq(newsCache.key, NEWS_CACHE_KEY));
    expect(row.articles).toHaveLength(2);
    expect(row.expiresAt.getTime() - t.clock.now().getTime()).toBe(NEWS_CACHE_TTL_MS);

    // A second visitor is served from the cache: no second call.
    await list();
    expect(news.requests).toHaveLength(1);
  });

  it('sanitises outside content and description (script, event handlers and javascript: links never survive)', async () => {
    news.setMode({
      kind: 'ok',
      articles: [
        sampleNewsArticle(1, {
          description: '<img src=x onerror="alert(1)"><script>alert(2)</script>Plain words',
          content: '<p onclick="alert(3)">Text <a href="javascript:alert(4)">link</a></p><iframe src="javascript:alert(5)"></iframe><script>alert(6)</script>',
        }),
        sampleNewsArticle(2, { content: '<a href="relative:evil">x</a>', description: 'Kept description' }),
      ],
    });
    await list();
    const { data } = await t.app.articles.findArticle(newsArticleId('https://news.example.test/stories/1?ref=feed'));
    expect(data?.bodyHtml).toContain('Text');
    expect(data?.bodyHtml).not.toMatch(/script|onclick|onerror|javascript:|alert/i);
    expect(data?.description).toBe('Plain words');
    // A 'relative:' exploit drops the field; the description is shown instead.
    const second = await t.app.articles.findArticle(newsArticleId('https://news.example.test/stories/2?ref=feed'));
    expect(second.data?.bodyHtml).toBe('Kept description');
  });

  it('drops articles without a usable url, title or date, and withdrawn ones', async () => {
    news.setMode({
      kind: 'ok',
      articles: [
        sampleNewsArticle(1),
        sampleNewsArticle(2, { url: 'javascript:alert(1)' }),
        sampleNewsArticle(3, { title: '[Removed]' }),
        sampleNewsArticle(4, { publishedAt: 'yesterday-ish' }),
        { nonsense: true },
        sampleNewsArticle(5, { urlToImage: 'data:image/png;base64,AAAA' }),
      ],
    });
    const page = await list();
    expect(page.items.map((a) => a.title)).toEqual(['Industry story number 1', 'Industry story number 5']);
    expect(page.items[1].image).toBeNull();
  });

  it('removes what would disguise an outside title or source name: overrides, isolates, zero-width characters, line breaks (decision 195)', async () => {
    news.setMode({
      kind: 'ok',
      articles: [
        sampleNewsArticle(1, { title: 'Port \u202Efdp.exe\u202C news', source: { name: '\u2066Wire\u200B Desk\u2069' } }),
        sampleNewsArticle(2, { title: 'Two\nlines \u2067طريق\u2069' }),
        sampleNewsArticle(3, { title: '\u200B\u200E' }),
      ],
    });
    const page = await list();
    expect(page.items.map((a) => a.title)).toEqual(['Port fdp.exe news', 'Two lines طريق']);
    expect(page.items[0].source).toBe('Wire Desk');
  });

  it("asks for an http picture over https (the page policy's img-src allows https: pictures only), on the card and the article", async () => {
    news.setMode({
      kind: 'ok',
      articles: [
        sampleNewsArticle(1, { urlToImage: 'http://pictures.example.test:8080/1.jpg?size=large' }),
        sampleNewsArticle(2, { urlToImage: 'HTTP://Pictures.Example.Test/2.jpg' }),
        sampleNewsArticle(3),
      ],
    });
    const page = await list();
    expect(page.items.map((a) => a.image)).toEqual([
      { kind: 'remote', src: 'https://pictures.example.test:8080/1.jpg?size=large' },
      { kind: 'remote', src: 'https://pictures.example.test/2.jpg' },
      { kind: 'remote', src: 'https://images.example.test/3.jpg' },
    ]);
    const { data } = await t.app.articles.findArticle(newsArticleId('https://news.example.test/stories/1?ref=feed'));
    expect(data?.image).toEqual({ kind: 'remote', src: 'https://pictures.example.test:8080/1.jpg?size=large' });
  });

  it('shows nothing but no error for an empty answer', async () => {
    news.setMode({ kind: 'ok', articles: [] });
    const page = await list();
    expect(page).toMatchObject({ items: [], newsError: null, total: 0 });
  });

  for (const [name, mode] of [
    ['a failure (HTTP 500)', { kind: 'status', status: 500 }],
    ['malformed JSON', { kind: 'raw', body: '{"status":"ok","articles":[{"title":' }],
    ['JSON of the wrong shape', { kind: 'raw', body: '{"status":"ok","items":[]}' }],
    ['a huge answer (3 MB)', { kind: 'huge', bytes: 3 * 1024 * 1024 }],
    ['an answer slower than the time-out', { kind: 'slow', delayMs: 3000, articles: [sampleNewsArticle(1)] }],
  ] as const) {
    it(`keeps the page working on the company's posts after ${name}, and says why when nothing is left`, async () => {
      news.setMode(mode);
      const started = Date.now();
      const empty = await list();
      expect(Date.now() - started).toBeLessThan(2500);
      expect(empty.items).toEqual([]);
      expect(empty.newsError).toBe(ARTICLES_TEXT.fetchFailed);
      const [row] = await t.database.db.select().from(newsCache);
      expect(row.lastError).toBeTruthy();
      expect(row.fetchedAt).toBeNull();

      await addPost('our-own-news', new Date('2026-11-01T10:00:00Z'));
      const withPost = await list();
      expect(withPost.items.map((a) => a.title)).toEqual(['Company post our-own-news']);
      // The failure is remembered: the service is not asked again at once.
      expect(news.requests).toHaveLength(1);
    });
  }

  it('refreshes once under 20 concurrent requests', async () => {
    news.setMode({ kind: 'slow', delayMs: 150, articles: [sampleNewsArticle(1)] });
    const pages = await Promise.all(Array.from({ length: 20 }, () => list()));
    expect(news.requests).toHaveLength(1);
    for (const p of pages) expect(p.items).toHaveLength(1);
  });

  it('refreshes once across two server processes on the same database', async () => {
    news.setMode({ kind: 'slow', delayMs: 150, articles: [sampleNewsArticle(1)] });
    const database = createDatabase(t.databaseUrl, { max: 4 });
    const other = await buildApp({ config: t.config, database, logger: false, clock: t.clock });
    try {
      const results = await Promise.all([
        ...Array.from({ length: 10 }, () => list()),
        ...Array.from({ length: 10 }, () => other.articles.listPage({ page: 1, category: null }).then((r) => r.data)),
      ]);
      expect(news.requests).toHaveLength(1);
      for (const r of results) expect(r.items.map((a) => a.title)).toEqual(['Industry story number 1']);
    } finally {
      await other.close();
      await database.close();
    }
  });

  it('serves the cached copy while the service fails after expiry, backs off, then takes the next good answer', async () => {
    news.setMode({ kind: 'ok', articles: [sampleNewsArticle(1)] });
    expect((await list()).items.map((a) => a.title)).toEqual(['Industry story number 1']);

    t.clock.advance(NEWS_CACHE_TTL_MS + 1000);
    news.setMode({ kind: 'status', status: 500 });
    // Expired: this request is served the old copy while one refresh runs behind it.
    expect((await list()).items.map((a) => a.title)).toEqual(['Industry story number 1']);
    await t.app.articles.settled();
    expect(news.requests).toHaveLength(2);
    const after = await list();
    expect(after.items.map((a) => a.title)).toEqual(['Industry story number 1']);
    expect(after.newsError).toBeNull();

    // Within the back-off nobody asks the service again.
    t.clock.advance(NEWS_RETRY_AFTER_MS - 5000);
    await list();
    await t.app.articles.settled();
    expect(news.requests).toHaveLength(2);

    // After it, the next good answer replaces the copy.
    t.clock.advance(10_000);
    news.setMode({ kind: 'ok', articles: [sampleNewsArticle(7)] });
    await list();
    await t.app.articles.settled();
    expect(news.requests).toHaveLength(3);
    expect((await list()).items.map((a) => a.title)).toEqual(['Industry story number 7']);
  });

  it('merges company posts and news newest first, pages them, and filters company posts by category', async () => {
    news.setMode({ kind: 'ok', articles: Array.from({ length: 14 }, (_, i) => sampleNewsArticle(i + 1)) });
    // Story 1 is 2026-11-20 11:00 UTC, each next one an hour older; the post sits between 2 and 3.
    await addPost('between-stories', new Date('2026-11-20T09:30:00Z'));
    const first = await list();
    expect(first.total).toBe(15);
    expect(first.pages).toBe(2);
    expect(first.items).toHaveLength(12);
    expect(first.items.slice(0, 3).map((a) => a.id)).toEqual([
      newsArticleId('https://news.example.test/stories/1?ref=feed'),
      newsArticleId('https://news.example.test/stories/2?ref=feed'),
      'between-stories',
    ]);
    expect(first.items[2]).toMatchObject({ kind: 'post', source: expect.stringContaining('Kora Delta'), category: 'Safety' });
    const second = await t.app.articles.listPage({ page: 2, category: null });
    expect(second.data.items).toHaveLength(3);
    const safety = await t.app.articles.listPage({ page: 1, category: 'Safety' });
    expect(safety.data.items.map((a) => a.id)).toEqual(['between-stories']);
    const other = await t.app.articles.listPage({ page: 1, category: 'Technology' });
    expect(other.data.items).toEqual([]);
  });

  it("lists up to three other articles of the same source as 'More from'", async () => {
    news.setMode({ kind: 'ok', articles: Array.from({ length: 10 }, (_, i) => sampleNewsArticle(i + 1)) });
    await list();
    const { data } = await t.app.articles.findArticle(newsArticleId('https://news.example.test/stories/1?ref=feed'));
    expect(data?.source).toBe('Site Weekly');
    expect(data?.related.map((r) => r.title)).toEqual(['Industry story number 3', 'Industry story number 5', 'Industry story number 7']);
    expect(data?.url).toBe('https://news.example.test/stories/1?ref=feed');
  });
});

describe('without a news key', () => {
  it("never calls the service and shows the company's posts", async () => {
    const plain = await createTestApp({ NEWS_API_URL: news.url });
    try {
      await plain.database.db.insert(blogPosts).values({
        title: 'Only ours',
        slug: 'only-ours',
        excerpt: 'x',
        content: '<p>y</p>',
        author: 'Staff',
        category: 'Technology',
        status: 'published',
        publishAt: new Date('2026-11-01T00:00:00Z'),
      });
      const page = await plain.app.articles.listPage({ page: 1, category: null });
      expect(page.data.items.map((a) => a.id)).toEqual(['only-ours']);
      expect(page.data.newsError).toBeNull();
      expect(news.requests).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });
});
