import { DESKTOP, PHONE, expect, test, useTheme } from './fixtures.ts';
import { showcaseProjects } from '../../common/content/projects.ts';
import { PATHS } from '../../common/paths.ts';
import type { Page } from '@playwright/test';

const cards = (page: Page) => page.getByRole('region', { name: 'Project Showcase' }).getByRole('list').first().locator(':scope > li');

test('shows every showcase project with location, optional area, completion date and client', async ({ page }) => {
  await page.goto(PATHS.projects);
  await expect(page.getByRole('heading', { level: 1, name: 'Our Projects' })).toBeVisible();
  await expect(cards(page)).toHaveCount(showcaseProjects.length);
  expect(showcaseProjects.length).toBe(19);
  for (const [i, p] of showcaseProjects.entries()) {
    const card = cards(page).nth(i);
    await expect(card.getByRole('heading', { level: 3 })).toHaveText(p.title);
    await expect(card).toContainText(p.location);
    await expect(card).toContainText(p.client);
    await expect(card.locator('time')).toHaveAttribute('datetime', p.date);
    const area = card.getByText('Area', { exact: true });
    if (p.area) {
      await expect(area).toHaveCount(1);
      await expect(card).toContainText(p.area);
    } else await expect(area).toHaveCount(0);
  }
  await expect(cards(page).first().locator('time')).toHaveText('November 2023');
});

test('lays the showcase out in two columns on large screens and one on phones', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.projects);
  const [a, b] = [await cards(page).nth(0).boundingBox(), await cards(page).nth(1).boundingBox()];
  expect(a!.y).toBe(b!.y);
  expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
  await page.setViewportSize(PHONE);
  const [c, d] = [await cards(page).nth(0).boundingBox(), await cards(page).nth(1).boundingBox()];
  expect(c!.x).toBe(d!.x);
  expect(d!.y).toBeGreaterThan(c!.y);
});

test('shows the three categories and the four statistics', async ({ page }) => {
  await page.goto(PATHS.projects);
  await expect(page.getByRole('region', { name: 'Project Categories' }).getByRole('heading', { level: 3 })).toHaveText([
    'Infrastructure Development',
    'Oil & Gas Facilities',
    'Marine & Logistics',
  ]);
  const stats = page.getByRole('region', { name: 'Our record in numbers' });
  await expect(stats.getByRole('definition')).toHaveText(['50+', '12+', '100%', '24/7']);
  await expect(stats.getByRole('term')).toHaveText(['Projects Completed', 'Years Experience', 'Nigerian Owned', 'Service Support']);
});

// Issue 21: from 640 px each picture was a 96x72 thumbnail in a 240-307 px column beside an empty block.
for (const theme of ['light', 'dark'] as const) {
  test(`every project picture fills its column at 320, 640, 1024 and 1920 px, sized before it loads (${theme})`, async ({ page }) => {
    await useTheme(page, theme);
    for (const width of [320, 640, 1024, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(PATHS.projects, { waitUntil: 'domcontentloaded' });
      // Measured at once, most pictures not loaded yet (lazy): the size comes from width/height and aspect-ratio.
      const boxes = await cards(page).evaluateAll((items) =>
        items.map((li) => {
          const img = li.querySelector('img')!;
          const card = li.getBoundingClientRect();
          const pic = img.getBoundingClientRect();
          const border = parseFloat(getComputedStyle(li).borderLeftWidth) * 2;
          return {
            card: { width: card.width - border, height: card.height - border },
            img: { width: pic.width, height: pic.height },
            attrs: [img.getAttribute('width'), img.getAttribute('height')],
            aspect: getComputedStyle(img).aspectRatio,
          };
        }),
      );
      expect(boxes).toHaveLength(showcaseProjects.length);
      for (const [i, b] of boxes.entries()) {
        const where = `${theme}, ${width} px, card ${i + 1}: ${JSON.stringify(b)}`;
        expect(b.attrs.every((v) => Number(v) > 0), where).toBe(true);
        expect(b.aspect, where).toContain('4 / 3');
        if (width < 640) {
          // Stacked: the picture spans the card, 4:3.
          expect(Math.abs(b.img.width - b.card.width), where).toBeLessThanOrEqual(1);
          expect(Math.abs(b.img.height - (b.img.width * 3) / 4), where).toBeLessThanOrEqual(1);
        } else {
          // Side by side: the picture takes two fifths of the card and its whole height (no empty block).
          expect(Math.abs(b.img.width - b.card.width * 0.4), where).toBeLessThanOrEqual(1);
          expect(b.img.width, where).toBeGreaterThanOrEqual(190);
          expect(Math.abs(b.img.height - b.card.height), where).toBeLessThanOrEqual(1);
        }
      }
    }
  });
}
