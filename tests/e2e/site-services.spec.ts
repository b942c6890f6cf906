import { DESKTOP, PHONE, expect, test } from './fixtures.ts';
import { services } from '../../common/content/services.ts';
import { PATHS } from '../../common/paths.ts';

test('shows the six services with details, a picture and key features', async ({ page }) => {
  await page.goto(PATHS.services);
  await expect(page.getByRole('heading', { level: 1, name: 'Our Services' })).toBeVisible();
  for (const s of services) {
    const section = page.locator(`section#${s.id}`);
    await expect(section.getByRole('heading', { level: 2 })).toHaveText(s.title);
    await expect(section).toContainText(s.description);
    for (const d of s.details) await expect(section).toContainText(d);
    await expect(section.getByRole('img', { name: `${s.title} illustration` })).toHaveAttribute('src', new RegExp(`/images/${s.image}-\\d+\\.webp$`));
    await expect(section.getByRole('heading', { name: 'Key features' })).toBeVisible();
    await expect(section.getByRole('listitem')).toHaveText(s.features);
  }
  await expect(page.getByRole('link', { name: 'Get A Quote' })).toHaveAttribute('href', PATHS.contact);
});

for (const viewport of [PHONE, DESKTOP]) {
  test(`opening /services#{id} directly scrolls to that section at ${viewport.width} px`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto(PATHS.serviceSection('marine-logistics'));
    const section = page.locator('#marine-logistics');
    // Below the fixed 64 px header, not under it, and stays there once the page has hydrated.
    await expect.poll(async () => Math.round((await section.boundingBox())?.y ?? -1)).toBe(64);
    await page.waitForLoadState('networkidle');
    expect(Math.round((await section.boundingBox())?.y ?? -1)).toBe(64);
    await expect(section.getByRole('heading', { level: 2, name: 'Marine & Logistics' })).toBeInViewport();
  });
}
