import { DESKTOP, PHONE, expect, test } from './fixtures.ts';
import { openWithClock, swipe } from './site-helpers.ts';
import { EQUIPMENT_CARDS_PER_VIEW_LARGE, EQUIPMENT_CAROUSEL_INTERVAL_MS, EQUIPMENT_SWIPE_THRESHOLD_PX } from '../../app/features/site/carousel-settings.ts';
import { equipment } from '../../common/content/equipment.ts';
import { PATHS } from '../../common/paths.ts';
import type { Page } from '@playwright/test';

const carousel = (page: Page) => page.getByRole('region', { name: 'Our Fleet', exact: true });
const slides = (page: Page) => carousel(page).locator('[aria-roledescription="slide"]');

/** The names of the cards in view (the others are inert). */
async function visibleNames(page: Page) {
  return slides(page).locator('xpath=self::*[not(@inert)]').locator('h3').allTextContents();
}
const names = (from: number, to: number) => equipment.slice(from, to).map((e) => e.name);

test.describe('fleet carousel on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test('shows one card at a time, advances every 4.5 s and wraps', async ({ page }) => {
    await openWithClock(page, PATHS.equipments, carousel(page));
    expect(await visibleNames(page)).toEqual(names(0, 1));
    await expect(carousel(page).getByRole('button', { name: /^Show / })).toHaveCount(equipment.length);
    await page.clock.runFor(EQUIPMENT_CAROUSEL_INTERVAL_MS - 100);
    expect(await visibleNames(page)).toEqual(names(0, 1));
    await page.clock.runFor(100);
    await expect.poll(() => visibleNames(page)).toEqual(names(1, 2));
    await carousel(page).getByRole('button', { name: `Show ${equipment.at(-1)!.name}` }).click();
    await expect.poll(() => visibleNames(page)).toEqual(names(equipment.length - 1, equipment.length));
    await carousel(page).getByRole('button', { name: 'Next equipment' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(names(0, 1));
  });

  test(`moves on a swipe longer than ${EQUIPMENT_SWIPE_THRESHOLD_PX} px only`, async ({ page }) => {
    await openWithClock(page, PATHS.equipments, carousel(page));
    const track = slides(page).first().locator('..');
    await swipe(track, -EQUIPMENT_SWIPE_THRESHOLD_PX);
    expect(await visibleNames(page)).toEqual(names(0, 1));
    await swipe(track, -(EQUIPMENT_SWIPE_THRESHOLD_PX + 1));
    await expect.poll(() => visibleNames(page)).toEqual(names(1, 2));
    await swipe(track, EQUIPMENT_SWIPE_THRESHOLD_PX + 1);
    await expect.poll(() => visibleNames(page)).toEqual(names(0, 1));
    await swipe(track, EQUIPMENT_SWIPE_THRESHOLD_PX + 1);
    await expect.poll(() => visibleNames(page)).toEqual(names(equipment.length - 1, equipment.length));
  });
});

test.describe('fleet carousel on a large screen', () => {
  test.use({ viewport: DESKTOP });

  test('shows three cards and steps by three with arrows, dots and the timer', async ({ page }) => {
    const per = EQUIPMENT_CARDS_PER_VIEW_LARGE;
    await openWithClock(page, PATHS.equipments, carousel(page));
    await expect.poll(() => visibleNames(page)).toEqual(names(0, per));
    const dots = carousel(page).getByRole('button', { name: /^Show equipment/ });
    await expect(dots).toHaveCount(equipment.length / per);
    await expect(dots.first()).toHaveAccessibleName(`Show equipment 1 to ${per}`);

    await carousel(page).getByRole('button', { name: 'Next equipment' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(names(per, 2 * per));
    await dots.last().click();
    await expect.poll(() => visibleNames(page)).toEqual(names(equipment.length - per, equipment.length));
    await expect(dots.last()).toHaveAttribute('aria-current', 'true');
    await carousel(page).getByRole('button', { name: 'Next equipment' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(names(0, per));
    await carousel(page).getByRole('button', { name: 'Previous equipment' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(names(equipment.length - per, equipment.length));

    // Buttons were clicked with the mouse, which now rests over the carousel: move it away to let it run.
    await page.mouse.move(5, 5);
    await page.clock.runFor(EQUIPMENT_CAROUSEL_INTERVAL_MS);
    await expect.poll(() => visibleNames(page)).toEqual(names(0, per));
    // The three visible cards sit side by side.
    const boxes = await Promise.all([0, 1, 2].map((i) => slides(page).nth(i).boundingBox()));
    expect(boxes[0]!.y).toBe(boxes[2]!.y);
    expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x);
  });

  test('each card shows a picture, its category badge and its name; four statistics follow', async ({ page }) => {
    await page.goto(PATHS.equipments);
    for (const [i, item] of equipment.entries()) {
      const slide = slides(page).nth(i);
      await expect(slide.locator('h3')).toHaveText(item.name);
      await expect(slide).toContainText(item.category);
      await expect(slide.locator('img')).toHaveAttribute('alt', item.name);
    }
    const stats = page.getByRole('region', { name: 'Our fleet in numbers' });
    await expect(stats.getByRole('definition')).toHaveText(['100+', '24/7', '100%', 'ISO']);
    await expect(stats.getByRole('term')).toHaveText(['Equipment Units', 'Maintenance', 'Compliance', 'Certified']);
  });
});
