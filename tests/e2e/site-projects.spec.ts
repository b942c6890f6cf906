import { DESKTOP, PHONE, expect, test } from './fixtures.ts';
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
