import { DESKTOP, PHONE, expect, test } from './fixtures.ts';
import { openWithClock, swipe } from './site-helpers.ts';
import { HOME_SLIDE_INTERVAL_MS, HOME_SLIDE_SWIPE_THRESHOLD_PX } from '../../app/features/site/carousel-settings.ts';
import { slides } from '../../common/content/home.ts';
import { services } from '../../common/content/services.ts';
import { partners } from '../../common/content/partners.ts';
import { whyChooseUs } from '../../common/content/facts.ts';
import { PATHS } from '../../common/paths.ts';
import type { Page } from '@playwright/test';

const slider = (page: Page) => page.getByRole('region', { name: 'Highlights' });
const dot = (page: Page, n: number) => page.getByRole('button', { name: new RegExp(`^Show slide ${n}:`) });

/** The slide on screen, by its dot (aria-current) and by the slide being the only one not inert. */
async function expectSlide(page: Page, n: number) {
  await expect(dot(page, n)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('[data-slide]:not([inert])')).toHaveAttribute('data-slide', slides[n - 1].theme);
}

test.describe('home slider', () => {
  test.use({ viewport: DESKTOP });

  test('shows six slides in order, each with Our Services and Get A Quote', async ({ page }) => {
    await page.goto(PATHS.home);
    const all = page.locator('[data-slide]');
    await expect(all).toHaveCount(6);
    expect(await all.evaluateAll((els) => els.map((e) => e.getAttribute('data-slide')))).toEqual(['safety', 'execution', 'expertise', 'quality', 'challenges', 'energy']);
    for (const [i, slide] of slides.entries()) {
      const el = all.nth(i);
      await expect(el.locator('h2')).toHaveText(slide.title);
      await expect(el.locator(`a[href="${PATHS.services}"]`)).toHaveText('Our Services');
      await expect(el.locator(`a[href="${PATHS.contact}"]`)).toHaveText('Get A Quote');
    }
    // Only the visible slide is reachable; the others are inert.
    await expect(page.locator('[data-slide][inert]')).toHaveCount(5);
    await expect(page.locator('[data-slide][aria-hidden="true"]')).toHaveCount(5);
    await expect(slider(page).getByRole('link', { name: 'Our Services' })).toHaveCount(1);
  });

  test('advances every 4.5 s and wraps from the last slide to the first', async ({ page }) => {
    await openWithClock(page, PATHS.home, slider(page));
    await expectSlide(page, 1);
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS - 100);
    await expectSlide(page, 1);
    await page.clock.runFor(100);
    await expectSlide(page, 2);
    for (let n = 3; n <= 6; n++) {
      await page.clock.runFor(HOME_SLIDE_INTERVAL_MS);
      await expectSlide(page, n);
    }
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS);
    await expectSlide(page, 1);
  });

  test('pauses while the mouse is over it and resumes when it leaves', async ({ page }) => {
    await openWithClock(page, PATHS.home, slider(page));
    await page.mouse.move(640, 400);
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS * 3);
    await expectSlide(page, 1);
    await page.locator('footer').scrollIntoViewIfNeeded();
    await page.mouse.move(640, 700);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(5, 5);
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS);
    await expectSlide(page, 2);
  });

  test('pauses while keyboard focus is inside, and the pause button stops and restarts it', async ({ page }) => {
    await openWithClock(page, PATHS.home, slider(page));
    await page.mouse.move(5, 5);
    await dot(page, 3).focus();
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS * 2);
    await expectSlide(page, 1);
    const toggle = page.getByRole('button', { name: 'Pause slideshow' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeFocused();
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS * 2);
    await expectSlide(page, 1);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Pause slideshow' })).toBeVisible();
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS);
    await expectSlide(page, 2);
  });

  test('does not rotate for visitors who prefer reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openWithClock(page, PATHS.home, slider(page));
    await expect(page.getByRole('button', { name: 'Play slideshow' })).toBeVisible();
    await page.clock.runFor(HOME_SLIDE_INTERVAL_MS * 3);
    await expectSlide(page, 1);
  });

  test('dot buttons jump to their slide', async ({ page }) => {
    await page.goto(PATHS.home);
    await expect(slider(page)).toHaveAttribute('data-ready', 'true');
    await dot(page, 4).click();
    await expectSlide(page, 4);
    await expect(page.locator('[data-slide="quality"] h2')).toBeVisible();
  });

  test('preloads the first slide picture and lazy-loads the rest', async ({ page }) => {
    await page.goto(PATHS.home);
    const preload = page.locator('head link[rel="preload"][as="image"]');
    await expect(preload).toHaveCount(2);
    expect(await preload.first().getAttribute('imagesrcset')).toContain('/images/slides/safety-portrait-');
    const first = page.locator('[data-slide="safety"] img');
    await expect(first).toHaveAttribute('loading', 'eager');
    await expect(first).toHaveAttribute('width', /\d+/);
    await expect(first).toHaveAttribute('height', /\d+/);
    // Pictures of later slides are not even in the page until they are about to show.
    await expect(page.locator('[data-slide="quality"] img')).toHaveCount(0);
  });
});

test.describe('home slider on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });

  test(`swipes left and right only past ${HOME_SLIDE_SWIPE_THRESHOLD_PX} px`, async ({ page }) => {
    await openWithClock(page, PATHS.home, slider(page));
    const region = slider(page);
    await swipe(region, -HOME_SLIDE_SWIPE_THRESHOLD_PX);
    await expectSlide(page, 1);
    await swipe(region, -(HOME_SLIDE_SWIPE_THRESHOLD_PX + 1));
    await expectSlide(page, 2);
    await swipe(region, HOME_SLIDE_SWIPE_THRESHOLD_PX);
    await expectSlide(page, 2);
    await swipe(region, HOME_SLIDE_SWIPE_THRESHOLD_PX + 1);
    await expectSlide(page, 1);
    await swipe(region, HOME_SLIDE_SWIPE_THRESHOLD_PX + 1);
    await expectSlide(page, 6);
  });

  test('fills the screen below the header', async ({ page }) => {
    await page.goto(PATHS.home);
    const box = await slider(page).boundingBox();
    expect(box?.y).toBe(64);
    expect(box?.height).toBe(PHONE.height - 64);
  });
});

test.describe('home sections', () => {
  test('lists the six services, each with Learn More to its section', async ({ page }) => {
    await page.goto(PATHS.home);
    const section = page.getByRole('region', { name: 'Our Specialized Services' });
    await expect(section.getByRole('heading', { level: 3 })).toHaveText(services.map((s) => s.title));
    const links = section.getByRole('link', { name: /^Learn More/ });
    await expect(links).toHaveCount(6);
    for (const [i, s] of services.entries()) {
      await expect(links.nth(i)).toHaveAttribute('href', `/services#${s.id}`);
      await expect(links.nth(i)).toHaveAccessibleName(`Learn More about ${s.title}`);
      expect(await links.nth(i).evaluate((a) => a.firstChild?.textContent)).toBe('Learn More');
    }
  });

  test('has Why Choose Us, the partners and Get Started Today', async ({ page }) => {
    await page.goto(PATHS.home);
    const why = page.getByRole('region', { name: 'Why Choose Us' });
    await expect(why.getByRole('listitem')).toHaveCount(4);
    await expect(why.getByRole('heading', { level: 3 })).toHaveText(whyChooseUs.map((p) => p.title));
    const partnersRegion = page.getByRole('region', { name: 'Our Trusted Partners' });
    for (const p of partners) await expect(partnersRegion.getByRole('img', { name: p.name })).toHaveAttribute('src', p.logo);
    await expect(page.getByRole('heading', { name: 'Get Started Today' })).toBeVisible();
    await page.getByRole('link', { name: 'Contact Us' }).click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test('the Learn More link opens Services scrolled to that service', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(PATHS.home);
    await page.getByRole('link', { name: 'Learn More about Civil Engineering' }).click();
    await expect(page).toHaveURL(/\/services#civil-engineering$/);
    // The section starts just below the fixed 64 px header.
    await expect.poll(async () => Math.round((await page.locator('#civil-engineering').boundingBox())?.y ?? -1)).toBe(64);
    await expect(page.getByRole('heading', { level: 2, name: 'Civil Engineering' })).toBeInViewport();
  });
});
