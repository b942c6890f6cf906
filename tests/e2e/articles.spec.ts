import type { Page } from '@playwright/test';
import pg from 'pg';
import { PATHS } from '../../common/paths.ts';
import { company } from '../../common/content/company.ts';
import { ARTICLE_FALLBACK_IMAGES, newsArticleId } from '../../common/schemas/articles.ts';
import { DESKTOP, PHONE, checkEveryLook, expect, test } from './fixtures.ts';

// The browser-test server's embedded database (playwright.config.ts), reached directly to write posts
// the way the blog module does: rows plus a 'blog_changed' event in the same transaction.
const PG_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app`;
// The same in every worker (a run starts on a fresh database): whichever worker writes the posts
// first, the others find them (on conflict do nothing), so no worker waits for posts of its own.
const TAG = 'e2e';
// One worker runs this file's tests in order: they share the posts written once below.
test.describe.configure({ mode: 'default' });
const slug = (name: string) => `${name}-${TAG}`;
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

interface Post {
  slug: string;
  title: string;
  category: string;
  status?: string;
  visibility?: string;
  publishAt?: Date | null;
  content?: string;
}

const POSTS: Post[] = [
  { slug: slug('jetty'), title: `Jetty rehabilitation handed over ${TAG}`, category: 'Marine & Logistics', publishAt: minutesAgo(5) },
  {
    slug: slug('safety'),
    title: `A year without a lost-time incident ${TAG}`,
    category: 'Safety',
    publishAt: minutesAgo(10),
    content:
      '<h2>How we did it</h2><p>Toolbox talks every morning.</p><script>window.__pwned = 1</script><img src="/nothing.png" onerror="window.__pwned = 2" alt="x"><p><a href="javascript:window.__pwned = 3">a link</a></p>',
  },
  { slug: slug('hidden'), title: `Hidden post ${TAG}`, category: 'Safety', visibility: 'hidden', publishAt: minutesAgo(3) },
  { slug: slug('draft'), title: `Draft post ${TAG}`, category: 'Safety', status: 'draft', publishAt: null },
  { slug: slug('future'), title: `Future post ${TAG}`, category: 'Safety', status: 'scheduled', publishAt: new Date(Date.now() + 86_400_000) },
];

test.beforeAll(async () => {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query('begin');
    for (const p of POSTS) {
      await client.query(
        `insert into blog_posts (title, slug, excerpt, content, author, category, status, visibility, publish_at, first_published_at)
         values ($1, $2, $3, $4, 'Amina Editor', $5, $6, $7, $8, $8) on conflict (slug) do nothing`,
        [p.title, p.slug, `<p>Short summary of ${p.title}</p>`, p.content ?? '<p>Body of the post.</p>', p.category, p.status ?? 'published', p.visibility ?? 'visible', p.publishAt ?? null],
      );
      await client.query(`select pg_notify('blog_changed', $1)`, [JSON.stringify({ id: p.slug })]);
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
});

/** The list once it shows this run's posts (the event reaches the server a moment after the commit). */
async function openList(page: Page, path: string = PATHS.articles) {
  await expect(async () => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: POSTS[0].title })).toBeVisible({ timeout: 5000 });
    // A worker's first page on a loaded machine (browser start, first render) can take a while.
  }).toPass({ timeout: 60_000 });
}

test('the list shows company posts and industry news together, newest first, with the right badges', async ({ page }) => {
  await openList(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeVisible();
  await expect(page.getByText('Latest updates from industry publications')).toBeVisible();
  const cards = page.getByRole('region', { name: 'Articles' }).getByRole('listitem');
  const ours = cards.filter({ hasText: POSTS[0].title });
  await expect(ours).toContainText(company.name);
  await expect(ours).toContainText(`Short summary of ${POSTS[0].title}`);
  // Newest first: this run's posts (minutes old) come before the news (a month old).
  const titles = await cards.locator('h2').allTextContents();
  expect(titles.indexOf(POSTS[0].title)).toBeLessThan(titles.indexOf('Industry story number 1'));
  expect(titles.indexOf(POSTS[1].title)).toBeLessThan(titles.indexOf('Industry story number 1'));
  await expect(page.getByRole('heading', { name: 'Industry story number 1', exact: true })).toBeVisible();
  const newsCard = cards.filter({ hasText: 'Industry story number 1' }).first();
  await expect(newsCard).toContainText('Site Weekly');
  await expect(newsCard).toContainText('Summary of story 1 & more');
  await expect(newsCard.getByRole('link', { name: /Read More/ })).toHaveAttribute('href', PATHS.article(newsArticleId('https://news.example.test/stories/1?ref=feed')));
  for (const hidden of POSTS.slice(2)) await expect(page.getByText(hidden.title)).toHaveCount(0);
});

test('a card opens its article, Back to News returns, and the browser back button too', async ({ page }) => {
  await openList(page);
  await page.getByRole('listitem').filter({ hasText: POSTS[1].title }).click();
  await expect(page).toHaveURL(PATHS.article(POSTS[1].slug));
  await expect(page.getByRole('heading', { level: 1, name: POSTS[1].title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How we did it' })).toBeVisible();
  await expect(page.getByText('Toolbox talks every morning.')).toBeVisible();
  await expect(page.getByText('Stay Updated')).toBeHidden();
  await expect(page.getByRole('heading', { name: `More from ${company.name}` })).toBeVisible();
  // Nothing from the hostile body ran.
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await page.getByRole('link', { name: 'Back to News' }).click();
  await expect(page).toHaveURL(PATHS.articles);
  await page.getByRole('listitem').filter({ hasText: 'Industry story number 2' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Industry story number 2' })).toBeVisible();
  const original = page.getByRole('link', { name: /Read original article on Build Journal/ });
  await expect(original).toHaveAttribute('href', 'https://news.example.test/stories/2?ref=feed');
  await expect(original).toHaveAttribute('target', '_blank');
  await expect(original).toHaveAttribute('rel', /noopener/);
  await expect(page.getByRole('heading', { name: 'More from Build Journal' })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(PATHS.articles);
});

test('paging and the category filter are plain links that work without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  try {
    await openList(page);
    await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();
    await page.getByRole('link', { name: 'Older articles' }).click();
    await expect(page).toHaveURL(`${PATHS.articles}?page=2`);
    await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Industry story number 14', exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Newer articles' }).click();
    await expect(page.getByText(/Page 1 of \d+/)).toBeVisible();

    await page.getByRole('navigation', { name: 'Categories of company posts' }).getByRole('link', { name: 'Safety' }).click();
    await expect(page).toHaveURL(`${PATHS.articles}?category=Safety`);
    await expect(page.getByRole('heading', { name: POSTS[1].title })).toBeVisible();
    await expect(page.getByRole('heading', { name: POSTS[0].title })).toHaveCount(0);
    await expect(page.getByText('Industry story number 1', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Safety' })).toHaveAttribute('aria-current', 'page');

    await page.goto(`${PATHS.articles}?category=Technology`);
    await expect(page.getByText('No articles found.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Try Again' })).toBeVisible();
  } finally {
    await context.close();
  }
});

test('a broken outside picture shows the stock picture, and so does an article without one', async ({ page }) => {
  const stock: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/images/articles/fallback-') && r.ok()) stock.push(new URL(r.url()).pathname);
  });
  await openList(page);
  const remote = page.getByRole('listitem').filter({ hasText: 'Industry story number 1' }).first().locator('[data-article-image="remote"]');
  // The service gave it over http: the page asks for it over https, which the policy allows (decision 186).
  await expect(remote).toHaveCSS('background-image', /url\("https:\/\/127\.0\.0\.1:\d+\/pictures\/1\.jpg"\).*fallback-\d\.svg/);
  const noPicture = page.getByRole('listitem').filter({ hasText: 'Industry story number 3' }).first().locator('img[data-article-image="fallback"]');
  await expect(noPicture).toHaveJSProperty('complete', true);
  expect(await noPicture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect.poll(() => stock.length).toBeGreaterThan(0);
  expect(stock.every((s) => (ARTICLE_FALLBACK_IMAGES as readonly string[]).includes(s))).toBe(true);
  await page.screenshot({ path: test.info().outputPath('articles-broken-pictures.png') });
});

test('unknown, hidden, draft and future articles are a real 404 with Article not found and a Return button', async ({ page }) => {
  await openList(page);
  for (const id of ['no-such-article', slug('hidden'), slug('draft'), slug('future')]) {
    const res = await page.goto(PATHS.article(id));
    expect(res?.status(), id).toBe(404);
    await expect(page.getByRole('heading', { name: 'Article not found' })).toBeVisible();
  }
  await page.goto(PATHS.articles);
  await page.goto(PATHS.article('no-such-article'));
  await page.getByRole('link', { name: 'Return' }).click();
  await expect(page).toHaveURL(PATHS.articles);
});

test('the server-rendered article carries its meta tags and JSON-LD and none of the hostile markup', async ({ request }) => {
  let html = '';
  await expect(async () => {
    const res = await request.get(PATHS.article(POSTS[1].slug));
    expect(res.status()).toBe(200);
    html = await res.text();
  }).toPass({ timeout: 15_000 });
  const url = new URL(PATHS.article(POSTS[1].slug), company.siteUrl).toString();
  expect(html).toContain(`<title>${POSTS[1].title} | ${company.shortName}</title>`);
  expect(html).toContain(`<link rel="canonical" href="${url}"/>`);
  expect(html).toContain(`<meta property="og:type" content="article"/>`);
  expect(html).toContain(`<meta property="og:title" content="${POSTS[1].title} | ${company.shortName}"/>`);
  expect(html).toContain(`<meta name="twitter:card" content="summary_large_image"/>`);
  const ld = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html);
  expect(JSON.parse(ld![1])).toMatchObject({ '@type': 'Article', headline: POSTS[1].title, author: { name: 'Amina Editor' } });
  expect(html).toContain('Toolbox talks every morning.');
  expect(html).not.toContain('__pwned');
  expect(html).not.toMatch(/onerror|javascript:/i);
});

test('the sitemap and the RSS feed list public posts only', async ({ request }) => {
  await expect(async () => {
    const xml = await (await request.get('/sitemap.xml')).text();
    expect(xml).toContain(`${company.siteUrl}/articles/${POSTS[0].slug}</loc>`);
  }).toPass({ timeout: 15_000 });
  const sitemap = await (await request.get('/sitemap.xml')).text();
  const res = await request.get('/articles/rss.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/rss+xml');
  const rss = await res.text();
  for (const p of POSTS.slice(0, 2)) {
    expect(sitemap).toContain(`/articles/${p.slug}</loc>`);
    expect(rss).toContain(`/articles/${p.slug}</link>`);
  }
  for (const p of POSTS.slice(2)) {
    expect(sitemap).not.toContain(p.slug);
    expect(rss).not.toContain(p.slug);
  }
  expect(rss).not.toContain('Industry story');
});

// One test per screen: axe is slow on a busy machine, and each look costs a reload and a full scan.
const SCREENS = [
  { name: 'articles', path: () => PATHS.articles, heading: () => POSTS[0].title },
  { name: 'article', path: () => PATHS.article(POSTS[1].slug), heading: () => POSTS[1].title },
  { name: 'article-news', path: () => PATHS.article(newsArticleId('https://news.example.test/stories/2?ref=feed')), heading: () => 'Industry story number 2' },
  { name: 'article-not-found', path: () => PATHS.article('no-such-article'), heading: () => 'Article not found' },
];
for (const screen of SCREENS) {
  test(`${screen.name} is axe-clean in both themes at ${PHONE.width} and ${DESKTOP.width} px`, async ({ page }) => {
    test.setTimeout(240_000);
    await openList(page);
    await page.goto(screen.path());
    await checkEveryLook(page, screen.name, (f) => test.info().outputPath(f), async () => {
      await expect(page.getByRole('heading', { name: screen.heading() }).first()).toBeVisible();
    });
  });
}
