import { DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test, useTheme } from './fixtures.ts';
import { HEADER_LINKS, PATHS, SITE_PAGE_PATHS, chromeFor } from '../../common/paths.ts';

// Every route of the specification's table, with a concrete path for the ones with parameters.
const ROUTES = [
  ...SITE_PAGE_PATHS,
  PATHS.articles,
  PATHS.article('some-article'),
  PATHS.clientLogin,
  PATHS.adminLogin,
  PATHS.clientDashboard,
  PATHS.adminDashboard,
  PATHS.blogList,
  PATHS.blogNew,
  PATHS.blogEdit('some-post'),
  '/no-such-page',
];

/** Where a signed-out visitor ends up (the specification's guards). */
function signedOutDestination(path: string): string {
  if (path === PATHS.clientDashboard) return PATHS.clientLogin;
  if (path.startsWith(PATHS.adminDashboard)) return PATHS.adminLogin;
  return path;
}

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`every route at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });
    for (const path of ROUTES) {
      test(`renders ${path} inside the right chrome with its own title, axe-clean`, async ({ page }) => {
        const response = await page.goto(path);
        // No article is called 'some-article': its page is the 'Article not found' screen with a real 404.
        expect(response?.status()).toBe(path === '/no-such-page' || path === PATHS.article('some-article') ? 404 : 200);
        await page.waitForLoadState('networkidle');
        // Guarded pages send a signed-out visitor to their login; wait for that before judging the chrome.
        const finalPath = signedOutDestination(path);
        await expect(page).toHaveURL((url) => url.pathname === finalPath);
        const chrome = chromeFor(finalPath);
        await expect(page.locator('header').filter({ has: page.getByRole('link', { name: /Client Login|My Dashboard/ }) })).toHaveCount(
          chrome.header ? 1 : 0,
        );
        await expect(page.locator('footer')).toHaveCount(chrome.footer ? 1 : 0);
        expect((await page.title()).length).toBeGreaterThan(0);
        await expectNoAxeViolations(page, path);
      });
    }
  });
}

test('the header carries the eleven public links in order', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  const labels = await page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('link').allTextContents();
  expect(labels).toEqual(HEADER_LINKS.map((l) => l.label));
  await expect(page.getByRole('link', { name: 'Client Login' })).toHaveAttribute('href', PATHS.clientLogin);
});

test('the mobile menu opens and closes from the keyboard', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Open menu' });
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('list').getByRole('link')).toHaveText(HEADER_LINKS.map((l) => l.label));
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
});

test('with the mobile menu open, Escape closes the menu first and a toast only with the next Escape', async ({ page }) => {
  await page.clock.install({ time: new Date('2026-11-22T09:00:00Z') });
  await page.setViewportSize(PHONE);
  await page.goto(PATHS.contact);
  await expect(page.locator('main form[data-ready="true"]')).toBeVisible();
  await page.clock.pauseAt(new Date('2026-11-22T10:00:00Z'));
  await page.getByRole('button', { name: 'Send Message' }).click();
  const toasts = page.getByRole('region', { name: 'Notifications' }).locator('li');
  await expect(toasts).toHaveCount(1);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(toasts).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(toasts).toHaveCount(0);
});

test('the footer has quick links, newsletter box and social links', async ({ page }) => {
  await page.goto('/about');
  const footer = page.locator('footer');
  await expect(footer.getByRole('navigation', { name: 'Quick links' }).getByRole('link')).toHaveText([
    'Services',
    'About Us',
    'How We Work',
    'Gallery',
    'Contact',
  ]);
  await expect(footer.getByRole('textbox', { name: 'Email address' })).toHaveAttribute('type', 'email');
  await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeVisible();
  for (const name of ['Facebook', 'Twitter', 'WhatsApp']) await expect(footer.getByRole('link', { name })).toBeVisible();
  await expect(footer).toContainText('All rights reserved');
});

test('the theme follows the system, is kept under "theme", and applies before first paint', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  // Record the class at the very first DOMContentLoaded, before React hydrates.
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      (window as unknown as { firstPaintDark: boolean }).firstPaintDark = document.documentElement.classList.contains('dark');
    });
  });
  await page.goto('/services');
  expect(await page.evaluate(() => (window as unknown as { firstPaintDark: boolean }).firstPaintDark)).toBe(true);
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  await page.reload();
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await context.close();
});

test('dark theme pages are axe-clean', async ({ page }) => {
  await useTheme(page, 'dark');
  for (const path of [PATHS.home, PATHS.clientLogin, '/no-such-page']) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveClass(/dark/);
    await expectNoAxeViolations(page, `${path} (dark)`);
  }
});

test('the 404 page offers a way home', async ({ page }) => {
  const response = await page.goto('/definitely/not/here');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a screen that crashes shows the router fallback with its message and a way home', async ({ page }) => {
  await signInAs(page, { role: 'admin' });
  // A malformed answer (a list that is not a list) makes the dashboard throw while rendering.
  await page.route('**/api/users/clients*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, clients: 'not a list', pagination: null }) }),
  );
  await page.goto(PATHS.adminDashboard);
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!', level: 1 })).toBeVisible();
  await expect(page.getByText(/not a function|is not iterable|Cannot read properties/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', PATHS.home);
  await expect(page).toHaveTitle('Unexpected Application Error!');
  await expectNoAxeViolations(page, 'router error fallback');
});

test('a route change scrolls to the top', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/about');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.locator('footer').getByRole('link', { name: 'Services' }).click();
  await expect(page).toHaveURL(/\/services$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('tooltips open after 700 ms, reopen at once within the 300 ms skip delay, and close on leave, Escape and scroll', async ({ page }) => {
  // The fake clock flows with real time until paused; paused, only runFor moves it.
  await page.clock.install({ time: new Date('2026-11-22T09:00:00Z') });
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  await page.clock.pauseAt(new Date('2026-11-22T10:00:00Z'));
  const toggle = page.getByRole('button', { name: /Switch to (dark|light) theme/ });
  await toggle.hover();
  await page.clock.runFor(650);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(page.getByRole('tooltip')).toBeVisible();
  await page.mouse.move(0, 400);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await page.clock.runFor(100);
  await toggle.hover();
  await page.clock.runFor(10);
  await expect(page.getByRole('tooltip')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  // Scrolling the page closes it too.
  await page.mouse.move(0, 400);
  await page.clock.runFor(1000);
  await toggle.hover();
  await page.clock.runFor(750);
  await expect(page.getByRole('tooltip')).toBeVisible();
  await page.evaluate(() => window.scrollBy(0, 300));
  await expect(page.getByRole('tooltip')).toHaveCount(0);
});

test('toasts stack, expand on hover or focus, close on Escape and dismiss themselves', async ({ page }) => {
  await page.clock.install({ time: new Date('2026-11-22T09:00:00Z') });
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.contact);
  await expect(page.locator('main form[data-ready="true"]')).toBeVisible();
  // From here on only runFor moves time, so the toasts' own timers are under the test's control.
  await page.clock.pauseAt(new Date('2026-11-22T10:00:00Z'));
  const send = page.getByRole('button', { name: 'Send Message' });
  const toasts = page.getByRole('region', { name: 'Notifications' }).locator('li');
  // A form's messages replace each other (issue 21: a message belongs to one attempt), so the stack
  // is made of two forms: the footer's newsletter box, refused, then the contact form.
  await page.route('**/api/form-token', (route) => route.fulfill({ json: { success: true, token: 'stack-test', field: 'formToken' } }));
  await page.route('**/api/newsletter/subscribe', (route) => route.fulfill({ status: 400, json: { success: false, message: 'Refused for this test', code: 'VALIDATION_ERROR' } }));
  const newsletter = page.locator('form[data-module="newsletter-form"]');
  await newsletter.getByRole('textbox', { name: 'Email address' }).fill('reader@example.test');
  await newsletter.getByRole('button', { name: 'Subscribe' }).click();
  // The box waits out the form's least fill time (2.3 s) before it sends; no toast is up meanwhile.
  await page.clock.runFor(2_500);
  await expect(toasts).toHaveCount(1);
  await send.click();
  await send.click();
  await expect(toasts).toHaveCount(2);
  await expect(toasts.first()).toContainText('Validation Error');

  /** Whether the second toast starts below the first (expanded) rather than tucked under it (stacked). */
  const spreadOut = async () => {
    const [first, second] = [await toasts.nth(0).boundingBox(), await toasts.nth(1).boundingBox()];
    return Boolean(first && second && second.y >= first.y + first.height);
  };
  expect(await spreadOut()).toBe(false);
  await toasts.first().hover();
  await expect.poll(spreadOut).toBe(true);
  await page.mouse.move(10, 700);
  await expect.poll(spreadOut).toBe(false);

  // Escape with the keyboard in the form closes the newest toast.
  await expect(page.getByRole('textbox', { name: 'Name', exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(toasts).toHaveCount(1);
  await send.click();
  await expect(toasts).toHaveCount(2);
  // Focus on a toast spreads the stack; Escape there closes that one.
  await toasts.nth(1).focus();
  await expect.poll(spreadOut).toBe(true);
  await page.keyboard.press('Escape');
  await expect(toasts).toHaveCount(1);

  // Left alone, the last one goes after five seconds.
  await page.getByRole('textbox', { name: 'Name', exact: true }).focus();
  await page.clock.runFor(4_500);
  await expect(toasts).toHaveCount(1);
  await page.clock.runFor(600);
  await expect(toasts).toHaveCount(0);

  // Closing the last one with its button (focus and pointer were on it) leaves the next toast to go by itself.
  await send.click();
  await expect(toasts).toHaveCount(1);
  await toasts.getByRole('button', { name: 'Close notification' }).click();
  await expect(toasts).toHaveCount(0);
  await page.mouse.move(10, 700);
  await page.getByRole('textbox', { name: 'Name', exact: true }).press('Enter');
  await expect(toasts).toHaveCount(1);
  await page.clock.runFor(5_100);
  await expect(toasts).toHaveCount(0);
});

test('pre-rendered pages come compressed, cacheable and revalidated by ETag, with a hash-only script policy', async ({ request }) => {
  const page = await request.get('/about', { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(page.status()).toBe(200);
  const headers = page.headers();
  expect(headers['content-encoding']).toBe('br');
  expect(headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(headers['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
  // No script directive (script-src, -elem, -attr) lets inline script run; directives are split on ';'.
  const scriptDirectives = headers['content-security-policy'].split(';').map((d) => d.trim()).filter((d) => d.startsWith('script-src'));
  expect(scriptDirectives.length).toBeGreaterThan(0);
  for (const directive of scriptDirectives) expect(directive).not.toContain("'unsafe-inline'");
  expect(await page.text()).toContain('<title>');
  const again = await request.get('/about', { headers: { 'If-None-Match': headers.etag } });
  expect(again.status()).toBe(304);
  const html = await page.text();
  const asset = /\/assets\/[^"]+\.js/.exec(html)?.[0];
  expect(asset).toBeTruthy();
  const js = await request.get(asset!, { headers: { 'Accept-Encoding': 'gzip' } });
  expect(js.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(js.headers()['content-encoding']).toBe('gzip');
});

test('the desktop header fits at 1280 px, also when it reads My Dashboard', async ({ page, context, baseURL }) => {
  await page.setViewportSize(DESKTOP);
  await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL! }]);
  await page.goto('/');
  const account = page.getByRole('link', { name: 'My Dashboard' });
  await expect(account).toHaveAttribute('href', PATHS.clientDashboard);
  const box = await account.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(DESKTOP.width);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBe(0);
});
