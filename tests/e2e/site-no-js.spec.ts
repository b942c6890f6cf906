import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { HEADER_LINKS, PATHS } from '../../common/paths.ts';
import { NEWSLETTER_FORM_TEXT, NEWSLETTER_MESSAGES } from '../../common/newsletter.ts';
import { slides } from '../../common/content/home.ts';

// Decision 140: the content pages are HTML first. With JavaScript off each one reads fully, shows
// its pictures, keeps its links, opens its menu (a native popover) and is axe-clean; with it on they
// load the small enhancement entry and none of React, React Router or a route module.

const CONTENT_PAGES: { path: string; heading: RegExp | string; status?: number }[] = [
  { path: PATHS.home, heading: slides[0].title },
  { path: PATHS.services, heading: /Services/ },
  { path: PATHS.about, heading: /About/ },
  { path: PATHS.howWeWork, heading: /How We Work/ },
  { path: PATHS.projects, heading: /Projects/ },
  { path: PATHS.equipments, heading: /Equipment/ },
  { path: PATHS.gallery, heading: /Gallery/ },
  { path: PATHS.certifications, heading: /Certifications/ },
  { path: PATHS.articles, heading: /./ },
  { path: '/no-such-page', heading: 'Oops! Page not found', status: 404 },
];

async function expectReadable(page: Page, path: string, heading: RegExp | string) {
  await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
  // Every picture is in the HTML itself (no script sets a source) and its file is served.
  const images = page.locator('main img');
  for (let i = 0; i < (await images.count()); i++) {
    const src = (await images.nth(i).getAttribute('src')) ?? '';
    expect(src, `${path}: an image without src`).not.toBe('');
    if (src.startsWith('data:')) continue;
    expect((await page.request.get(src)).status(), `${path}: ${src}`).toBe(200);
  }
  // Links are real links with their targets: the header's eleven, the footer's, and the page's own.
  await expect(page.locator('header nav[aria-label="Main"] a[href]')).toHaveCount(11);
  expect(await page.locator('footer a[href]').count()).toBeGreaterThan(5);
  const links = page.locator('main a');
  for (let i = 0; i < (await links.count()); i++) {
    expect(await links.nth(i).getAttribute('href'), `${path}: a link without href`).toMatch(/^(\/|https?:|mailto:|tel:|#)/);
  }
}

test.describe('content pages with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  for (const viewport of [PHONE, DESKTOP]) {
    for (const { path, heading, status } of CONTENT_PAGES) {
      test(`${path} reads fully at ${viewport.width} px, with pictures and links`, async ({ page }) => {
        await page.setViewportSize(viewport);
        const response = await page.goto(path);
        expect(response?.status()).toBe(status ?? 200);
        await expectReadable(page, path, heading);
      });
    }
  }

  test('the phone menu opens and lists every header link without JavaScript', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto(PATHS.about);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link')).toHaveText(HEADER_LINKS.map((l) => l.label));
    await menu.getByRole('link', { name: 'Services' }).click();
    await expect(page).toHaveURL(PATHS.services);
  });

  test('the home slider shows its first slide, the others stay out of reach', async ({ page }) => {
    await page.goto(PATHS.home);
    await expect(page.locator('[data-slide]:not([inert])')).toHaveAttribute('data-slide', slides[0].theme);
    await expect(page.locator('[data-slide="safety"] img')).toBeVisible();
  });
});

// Decision 176: the footer's box is a real form; without JavaScript it posts and gets a page back.
test.describe('the newsletter box with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('posts from a content page and answers the confirmation page, axe-clean, with the address stored', async ({ page, browser }) => {
    const email = `nojs-${randomBytes(3).toString('hex')}@news.example`;
    await page.setViewportSize(PHONE);
    await page.goto(PATHS.gallery);
    const footer = page.locator('footer');
    await footer.getByLabel('Email address').fill(email);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === PATHS.newsletterSubscribe && r.request().method() === 'POST');
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    await expect(page).toHaveURL(PATHS.newsletterSubscribe);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: NEWSLETTER_FORM_TEXT.title })).toBeVisible();
    await expect(main.getByRole('status')).toHaveText(NEWSLETTER_MESSAGES.checkInbox);
    await expect(page).toHaveTitle(/^Newsletter subscription \|/);
    // The page has the site's header and footer, and leads back to where the visitor was.
    await expect(page.locator('header nav[aria-label="Main"] a[href]')).toHaveCount(11);
    await expect(page.locator('footer form[method="post"]')).toBeVisible();
    const html = await response.text();
    const back = main.getByRole('link', { name: NEWSLETTER_FORM_TEXT.back });
    await expect(back).toHaveAttribute('href', PATHS.gallery);
    await back.click();
    await expect(page).toHaveURL(PATHS.gallery);

    // axe needs script in the page: the very answer the browser got, shown again with script on and
    // every script file refused (a second post would only spend the network's hourly allowance).
    const context = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: PHONE, javaScriptEnabled: true });
    try {
      const axePage = await context.newPage();
      await axePage.route('**/*.js', (route) => route.abort());
      await axePage.route(`${E2E_BASE_URL}${PATHS.newsletterSubscribe}`, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
      await axePage.goto(PATHS.newsletterSubscribe);
      await expect(axePage.getByRole('main').getByRole('status')).toHaveText(NEWSLETTER_MESSAGES.checkInbox);
      await expectNoAxeViolations(axePage, 'newsletter answer page');

      // Stored, waiting for the confirmation of its link.
      await signInAs(axePage, { role: 'admin' });
      const list = await axePage.request.get('/api/newsletter/subscribers?status=pending');
      expect(list.status()).toBe(200);
      const { subscribers } = (await list.json()) as { subscribers: { email: string; status: string }[] };
      expect(subscribers.find((s) => s.email === email)).toMatchObject({ status: 'pending' });
    } finally {
      await context.close();
    }
  });
});

// axe needs script in the page, so it checks the same markup with every script file refused instead.
test.describe('content pages with their scripts refused', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`every content page is axe-clean at ${viewport.width} px`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize(viewport);
      await page.route('**/*.js', (route) => route.abort());
      for (const { path } of CONTENT_PAGES) {
        await page.goto(path);
        await expectNoAxeViolations(page, `${path} without its scripts`);
      }
    });
  }
});

test('content pages load only the enhancement entry: no React, no router, no modulepreload', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  for (const { path } of CONTENT_PAGES) {
    scripts.length = 0;
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await page.locator('link[rel="modulepreload"]').count(), path).toBe(0);
    expect(scripts, path).toHaveLength(1);
    expect(scripts[0], path).toMatch(/^\/assets\/entry-[\w-]+\.js$/);
    expect(await page.evaluate(() => '__reactRouterContext' in window), path).toBe(false);
  }
  // A form page still hydrates.
  await page.goto(PATHS.contact);
  expect(await page.evaluate(() => '__reactRouterContext' in window)).toBe(true);
});

test('the content pages carry speculation rules the script policy allows', async ({ page, request }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(PATHS.about);
  const rules = JSON.parse((await page.locator('script[type="speculationrules"]').textContent()) ?? '{}') as { prerender: { where: { href_matches: string[] } }[] };
  expect(rules.prerender[0].where.href_matches).toContain(PATHS.services);
  expect(rules.prerender[0].where.href_matches).not.toContain(PATHS.contact);
  const res = await request.get(PATHS.about);
  const scriptSrc = /script-src [^;]+/.exec(res.headers()['content-security-policy'] ?? '')?.[0] ?? '';
  // Only this origin and the hashes of the two inline scripts (theme boot and speculation rules).
  expect(scriptSrc).toMatch(/^script-src 'self' 'sha256-[^']+' 'sha256-[^']+'$/);
  expect(violations).toEqual([]);
});
