import { expect, test } from './fixtures.ts';

// How the production build is served (issue 15, decisions 155 and 158): the not-found document sent
// from memory with its 404 status, route discovery answered from memory, static files compressed at
// build time.

test('every unknown path gets the one not-found document with status 404, and it works in the browser', async ({ page, request }) => {
  const first = await request.get('/no/such/page', { headers: { 'accept-encoding': 'identity' } });
  const second = await request.get('/another-missing-page?x=1', { headers: { 'accept-encoding': 'identity' } });
  expect(first.status()).toBe(404);
  expect(second.status()).toBe(404);
  expect(first.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(first.headers()['content-security-policy']).toContain("script-src");
  expect(first.headers().etag).toBeUndefined();
  const html = await first.text();
  expect(html).toContain('Oops! Page not found');
  expect(html).toContain('<meta name="robots" content="noindex"/>');
  // The same document, each answer with its own script nonce (decision 170).
  const nonceOf = (res: typeof first) => /'nonce-([^']+)'/.exec(res.headers()['content-security-policy'] ?? '')?.[1] ?? '';
  expect(nonceOf(first)).not.toBe('');
  expect(nonceOf(second)).not.toBe(nonceOf(first));
  expect(html).toContain(`nonce="${nonceOf(first)}"`);
  expect((await second.text()).replaceAll(nonceOf(second), 'N')).toBe(html.replaceAll(nonceOf(first), 'N'));

  // In a browser: the page shows, hydrates, and its link leads home.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const response = await page.goto('/yet/another/missing');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});

test('a missing page under the admin area keeps its own chrome (rendered, still 404)', async ({ request }) => {
  const res = await request.get('/secured/v1/admin/no-such-screen');
  expect(res.status()).toBe(404);
  expect(await res.text()).toContain('Oops! Page not found');
});

// Both open /contact: a page React hydrates (content pages load no React Router, decision 140).
test('route discovery answers the same from memory on repeat, and a stale version asks for a reload', async ({ page, request }) => {
  await page.goto('/contact');
  const version = await page.evaluate(() => (window as unknown as { __reactRouterManifest: { version: string } }).__reactRouterManifest.version);
  const url = `/__manifest?paths=${encodeURIComponent('/articles,/contact')}&version=${version}`;
  const a = await request.get(url);
  const b = await request.get(url);
  expect(a.status()).toBe(200);
  const body = await a.json();
  expect(Object.keys(body)).toEqual(expect.arrayContaining(['root', 'routes/site/articles', 'routes/site/contact']));
  expect(await b.json()).toEqual(body);
  const stale = await request.get(`/__manifest?paths=%2Fabout&version=not-this-build`);
  expect(stale.status()).toBe(204);
  expect(stale.headers()['x-remix-reload-document']).toBe('true');
});

test('a hashed script comes precompressed with immutable caching, and 304 on its ETag', async ({ request }) => {
  // The page's first modulepreload, read from the answer: React Router's <Scripts> drops its preload
  // links once the page has hydrated, so the live document may no longer have them.
  const html = await (await request.get('/contact')).text();
  const src = /<link rel="modulepreload" href="([^"]+)"/.exec(html)?.[1] ?? '';
  expect(src).toMatch(/^\/assets\/.+\.js$/);
  const res = await request.get(src, { headers: { 'accept-encoding': 'br' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-encoding']).toBe('br');
  expect(res.headers().vary).toMatch(/Accept-Encoding/i);
  expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  // Playwright's client undoes the brotli itself: the same script as the uncompressed answer.
  const plain = await request.get(src, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect(await res.text()).toBe(await plain.text());
  expect(Number(res.headers()['content-length'])).toBeLessThan(Number(plain.headers()['content-length']));
  const again = await request.get(src, { headers: { 'accept-encoding': 'br', 'if-none-match': res.headers().etag } });
  expect(again.status()).toBe(304);
});
