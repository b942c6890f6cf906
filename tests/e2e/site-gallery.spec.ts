import { DESKTOP, PHONE, expect, test } from './fixtures.ts';
import { openWithClock } from './site-helpers.ts';
import { TESTIMONIAL_INTERVAL_MS } from '../../app/features/site/carousel-settings.ts';
import { gallery } from '../../common/content/gallery.ts';
import { testimonials } from '../../common/content/testimonials.ts';
import { PATHS } from '../../common/paths.ts';
import type { Page } from '@playwright/test';

const items = (page: Page) => page.getByRole('region', { name: 'Gallery' }).locator('figure');
const captionOpacity = (page: Page, i: number) => items(page).nth(i).locator('figcaption').evaluate((el) => getComputedStyle(el).opacity);

test('the grid has one to four columns by width', async ({ page }) => {
  await page.goto(PATHS.gallery);
  await expect(items(page)).toHaveCount(gallery.length);
  for (const [width, columns] of [
    [390, 1],
    [640, 2],
    [800, 3],
    [1280, 4],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    const xs = await items(page).evaluateAll((els) => els.slice(0, 5).map((e) => Math.round(e.getBoundingClientRect().x)));
    expect(new Set(xs).size, `${width} px`).toBe(columns);
  }
});

test.describe('captions on a large screen', () => {
  test.use({ viewport: DESKTOP });

  test('show name and location on hover and on keyboard focus', async ({ page }) => {
    await page.goto(PATHS.gallery);
    await page.mouse.move(1, 1);
    const first = items(page).first();
    await expect(first.locator('figcaption')).toContainText(gallery[0].name);
    await expect(first.locator('figcaption')).toContainText(gallery[0].location);
    await expect.poll(() => captionOpacity(page, 0)).toBe('0');
    await first.hover();
    await expect.poll(() => captionOpacity(page, 0)).toBe('1');
    await page.mouse.move(1, 1);
    await expect.poll(() => captionOpacity(page, 0)).toBe('0');
    await items(page).nth(1).focus();
    await expect.poll(() => captionOpacity(page, 1)).toBe('1');
  });
});

test.describe('captions on a touch screen', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('show without hovering', async ({ page }) => {
    await page.goto(PATHS.gallery);
    await items(page).nth(2).tap();
    await expect.poll(() => captionOpacity(page, 2)).toBe('1');
  });
});

test('testimonials change every 5 s and loop back to the first', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const region = page.getByRole('region', { name: 'What Our Clients Say' });
  await openWithClock(page, PATHS.gallery, region);
  await page.mouse.move(1, 1);
  const current = () => region.locator('[aria-roledescription="slide"]:not([inert]) blockquote').textContent();
  await expect.poll(current).toContain(testimonials[0].quote);
  await page.clock.runFor(TESTIMONIAL_INTERVAL_MS - 100);
  await expect.poll(current).toContain(testimonials[0].quote);
  for (let i = 1; i <= testimonials.length; i++) {
    await page.clock.runFor(i === 1 ? 100 : TESTIMONIAL_INTERVAL_MS);
    await expect.poll(current).toContain(testimonials[i % testimonials.length].quote);
  }
  await region.getByRole('button', { name: 'Previous testimonial' }).click();
  await expect.poll(current).toContain(testimonials.at(-1)!.quote);
});
