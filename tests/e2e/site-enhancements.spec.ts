import { DESKTOP, PHONE, expect, test, useTheme } from './fixtures.ts';
import { PATHS } from '../../common/paths.ts';
import { TESTIMONIAL_INTERVAL_MS } from '../../app/features/site/carousel-settings.ts';
import { openWithClock, swipe } from './site-helpers.ts';

// The enhancement modules of the content pages (app/enhance/, decision 140), each on its own, on
// pages that ship no React: keyboard, touch and the fake clock.

test('theme toggle: keyboard switches the theme, names the button for the next switch and remembers it', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.certifications);
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.reload();
  const toggle = page.getByRole('button', { name: 'Switch to dark theme' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByRole('button', { name: 'Switch to light theme' })).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  await page.keyboard.press('Space');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('account link: reads My Dashboard when the signed-in hint is there, Client Login otherwise', async ({ page, context, baseURL }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.about);
  await expect(page.getByRole('link', { name: 'Client Login' })).toHaveAttribute('href', PATHS.clientLogin);
  await context.addCookies([{ name: 'signed_in', value: '1', url: baseURL! }]);
  await page.goto(PATHS.about);
  await expect(page.getByRole('link', { name: 'My Dashboard' })).toHaveAttribute('href', PATHS.clientDashboard);
});

test('mobile menu: opens from the keyboard, Escape closes it and gives focus back, a link takes you there', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(PATHS.gallery);
  const button = page.getByRole('button', { name: 'Open menu' });
  await button.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close menu' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  await button.click();
  await menu.getByRole('link', { name: 'Projects' }).click();
  await expect(page).toHaveURL(PATHS.projects);
});

// Issue 21: the open menu had no backdrop or separation, so the page's text ran on under its last link;
// and its button carried aria-expanded, which a popovertarget button must not (the popover exposes its state).
for (const theme of ['light', 'dark'] as const) {
  test(`mobile menu: set apart from the page by a dimmed backdrop below the header and a shadow, no aria-expanded (${theme})`, async ({ page }) => {
    await useTheme(page, theme);
    await page.setViewportSize(PHONE);
    await page.goto(PATHS.about);
    const button = page.getByRole('button', { name: 'Open menu' });
    await expect(button).not.toHaveAttribute('aria-expanded');
    await button.click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).not.toHaveAttribute('aria-expanded');
    const look = await menu.evaluate((el) => {
      const backdrop = getComputedStyle(el, '::backdrop');
      const header = el.closest('header')!.getBoundingClientRect();
      // The colour's opacity, whatever notation it is given in (painted on a canvas and read back).
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.fillStyle = backdrop.backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      const alpha = ctx.getImageData(0, 0, 1, 1).data[3] / 255;
      return { backdrop: backdrop.backgroundColor, alpha, backdropTop: backdrop.top, headerBottom: header.bottom, shadow: getComputedStyle(el).boxShadow };
    });
    // A backdrop that dims the page but not the header (its button closes the menu), and a shadow.
    expect(look.alpha, look.backdrop).toBeGreaterThanOrEqual(0.5);
    expect(parseFloat(look.backdropTop)).toBeGreaterThanOrEqual(look.headerBottom - 1);
    expect(look.shadow).not.toBe('none');
    // The icon follows the state: a cross while open.
    const icons = page.getByRole('button', { name: 'Close menu' }).locator('svg');
    await expect(icons.nth(0)).toBeHidden();
    await expect(icons.nth(1)).toBeVisible();
    // A click on the dimmed page closes it (light dismiss).
    await page.mouse.click(PHONE.width / 2, PHONE.height - 10);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('button', { name: 'Open menu' }).locator('svg').nth(0)).toBeVisible();
  });
}

test('newsletter form: a wrong address is caught in place, a refused subscription says why in its status line', async ({ page }) => {
  await page.clock.install({ time: new Date('2026-11-23T09:00:00Z') });
  await page.setViewportSize(DESKTOP);
  await page.route('**/api/newsletter/subscribe', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Service unavailable', code: 'UNAVAILABLE' }) }),
  );
  await page.goto(PATHS.services);
  const footer = page.locator('footer');
  await expect(footer.locator('form[data-ready="true"]')).toBeVisible();
  await footer.getByLabel('Email address').fill('not-an-address');
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(footer.getByRole('status')).toHaveText('Please enter a valid email address');
  await expect(footer.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  await footer.getByLabel('Email address').fill('reader@example.com');
  await expect(footer.getByLabel('Email address')).not.toHaveAttribute('aria-invalid');
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  // The bot guard's minimum fill time passes on the fake clock.
  await page.clock.runFor(3_000);
  await expect(footer.getByRole('status')).toHaveText('Service unavailable');
  await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
});

test('testimonials: arrows step and loop, the clock moves it every 5 s', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const carousel = page.getByRole('region', { name: 'What Our Clients Say' });
  await openWithClock(page, PATHS.gallery, carousel);
  const current = carousel.locator('[data-testimonial]:not([inert])');
  const first = await current.getAttribute('aria-label');
  expect(first).toMatch(/^1 of /);
  await page.mouse.move(5, 5);
  await page.clock.runFor(TESTIMONIAL_INTERVAL_MS);
  await expect(current).toHaveAttribute('aria-label', /^2 of /);
  await carousel.getByRole('button', { name: 'Previous testimonial' }).click();
  await expect(current).toHaveAttribute('aria-label', /^1 of /);
  await carousel.getByRole('button', { name: 'Previous testimonial' }).click();
  await expect(current).not.toHaveAttribute('aria-label', /^1 of /);
});

test.describe('fleet carousel on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });
  test('a swipe moves one card; the dots follow', async ({ page }) => {
    const carousel = page.getByRole('region', { name: 'Our Fleet', exact: true });
    await openWithClock(page, PATHS.equipments, carousel);
    const visible = carousel.locator('[data-card][data-visible="true"]');
    await expect(visible).toHaveCount(1);
    await expect(visible).toHaveAttribute('aria-label', /\(1 of /);
    await swipe(carousel.locator('[data-carousel-viewport]'), -60);
    await expect(visible).toHaveAttribute('aria-label', /\(2 of /);
    await expect(carousel.locator('[data-carousel-dots="small"] [aria-current="true"]')).toHaveAttribute('data-carousel-dot', '1');
  });
});
