import type { APIResponse, Page, Response } from '@playwright/test';
import pg from 'pg';
import { PATHS } from '../../common/paths.ts';
import { expect, signInAs, test, useTheme } from './fixtures.ts';

// Decision 170 (issue 16, "CSP from the output"): a server-rendered page's scripts run under a policy
// that allows this origin and the answer's nonce, nothing read from the page. In Chromium: the
// hydrated pages (a sign-in page, a signed-in page) and an article page (cached, not hydrated) run
// their own scripts with no violation, on a reload answered 304 too.

const PG_URL = `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app`;
const SLUG = 'script-nonce-e2e';

test.beforeAll(async () => {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query('begin');
    await client.query(
      `insert into blog_posts (title, slug, excerpt, content, author, category, status, visibility, publish_at, first_published_at)
       values ($1, $2, $3, $4, 'Amina Editor', 'Safety', 'published', 'visible', $5, $5) on conflict (slug) do nothing`,
      ['Scripts under a nonce', SLUG, '<p>Summary</p>', '<p>Body of the post.</p><script>window.__pwned = 1</script>', new Date(Date.now() - 60_000)],
    );
    await client.query(`select pg_notify('blog_changed', $1)`, [JSON.stringify({ id: SLUG })]);
    await client.query('commit');
  } finally {
    await client.end();
  }
});

/** Collects the page's CSP violations: Chromium's console lines and the page's own event. */
async function watchViolations(page: Page) {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __violations?: string[] };
      (w.__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return async () => [...seen, ...(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []))];
}

/** The answer's nonce: the only script source besides 'self'; and every script of its HTML carries it. */
async function expectNonceOnEveryScript(response: Response | APIResponse | null) {
  expect(response).not.toBeNull();
  const headers = 'allHeaders' in response! ? await response.allHeaders() : response!.headers();
  const csp = headers['content-security-policy'] ?? '';
  const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)';/.exec(csp)?.[1];
  expect(nonce, csp).toBeDefined();
  expect(csp).not.toContain('sha256-');
  const html = await response!.text();
  // Data blocks (the articles' JSON-LD from <Meta>) never run, so the policy does not apply to them.
  const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !tag.includes('type="application/ld+json"'));
  expect(scripts.length).toBeGreaterThanOrEqual(2);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  return nonce!;
}

test('a hydrated server-rendered page and a signed-in page run their scripts under the answer\'s nonce', async ({ page }) => {
  const violations = await watchViolations(page);
  await useTheme(page, 'dark');
  const first = await expectNonceOnEveryScript(await page.goto(PATHS.clientLogin));
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  // Hydrated: the form answers through React (a failed sign-in shows the server's message inline).
  await page.getByLabel('Username').fill('nobody-at-all');
  await page.getByLabel('Password', { exact: true }).fill('wrong password here');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.locator('form').getByRole('alert')).toHaveText('Invalid username or password.');
  const second = await expectNonceOnEveryScript(await page.goto(PATHS.clientLogin));
  expect(second).not.toBe(first);

  await signInAs(page, { role: 'client', name: 'Nonce Client' });
  await expectNonceOnEveryScript(await page.goto(PATHS.clientDashboard));
  await expect(page.getByRole('heading', { name: 'My Projects' })).toBeVisible();
  expect(await violations()).toEqual([]);
});

// Decision 117: the probe at the end of this test is the one violation it may cause, and it must.
test.describe('an article page with a script injected without the nonce', () => {
  test.use({ expectedCspViolations: [`script-src inline on ${PATHS.article(SLUG)}`] });

  test('an article page (server-rendered, from the page cache) runs its scripts, on a fresh load and a 304 reload', async ({ page }) => {
    const violations = await watchViolations(page);
    await useTheme(page, 'dark');
    const url = PATHS.article(SLUG);
    await expect.poll(async () => (await page.request.get(url)).status()).toBe(200);
    const response = await page.goto(url);
    const first = await expectNonceOnEveryScript(response);
    const etag = await response!.headerValue('etag');
    expect(etag).toMatch(/^W\//);
    await expect(page.getByRole('heading', { name: 'Scripts under a nonce' })).toBeVisible();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    // The enhancement entry ran (it marks what it wired).
    await expect(page.locator('[data-module="theme-toggle"][data-enhanced="true"]').first()).toBeAttached();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // Revalidated: the server answers 304 without a policy, so the browser keeps its body and the
    // policy that names that body's nonce; the page's scripts run again.
    const reload = await page.reload();
    expect(await reload!.request().headerValue('if-none-match')).toBe(etag);
    expect(await reload!.headerValue('content-security-policy')).toBeNull();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await expect(page.locator('[data-module="theme-toggle"][data-enhanced="true"]').first()).toBeAttached();
    expect(await violations()).toEqual([]);
    // And the kept policy is still in force: an inline script without the nonce is refused.
    const probeRan = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__probe = 1';
      document.body.append(script);
      return (window as unknown as { __probe?: number }).__probe === 1;
    });
    expect(probeRan).toBe(false);
    await expect.poll(async () => (await violations()).length).toBe(2);
    const probeViolations = await violations();
    for (const violation of probeViolations) expect(violation).toMatch(/script-src/);

    // Another answer (not from this browser's cache, which would revalidate again): a new nonce.
    const again = await expectNonceOnEveryScript(await page.request.get(url));
    expect(again).not.toBe(first);
    // Nothing but the probe was refused.
    expect(await violations()).toEqual(probeViolations);
  });
});
