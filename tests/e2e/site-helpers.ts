import { expect, type Locator, type Page } from '@playwright/test';

const CLOCK_START = new Date('2026-03-02T09:00:00Z');

/**
 * Opens a page with a fake clock that stands still until the test moves it (page.clock.runFor),
 * and waits until the carousel on it has hydrated, so its timer is running on that clock.
 */
export async function openWithClock(page: Page, path: string, carousel: Locator) {
  await page.clock.install({ time: CLOCK_START });
  await page.clock.pauseAt(new Date(CLOCK_START.getTime() + 1000));
  await page.goto(path);
  await expect(carousel).toHaveAttribute('data-ready', 'true');
}

/** A one-finger horizontal swipe of `dx` pixels over the element (touch events, as a phone sends). */
export async function swipe(target: Locator, dx: number) {
  const box = await target.boundingBox();
  if (!box) throw new Error('swipe target is not visible');
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const at = (cx: number) => [{ identifier: 1, clientX: cx, clientY: y, pageX: cx, pageY: y }];
  await target.dispatchEvent('touchstart', { touches: at(x), changedTouches: at(x), targetTouches: at(x) });
  await target.dispatchEvent('touchmove', { touches: at(x + dx), changedTouches: at(x + dx), targetTouches: at(x + dx) });
  await target.dispatchEvent('touchend', { touches: [], changedTouches: at(x + dx), targetTouches: [] });
}
