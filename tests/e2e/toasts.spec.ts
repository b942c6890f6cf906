import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, expect, expectNoAxeViolations, PHONE, test, useTheme } from './fixtures.ts';

// Issue 27 (decision 232): one toast renderer on content pages and hydrated pages alike; a toast
// waits while the pointer rests on the stack; a toast may carry an action (issue 22's 'Undo').

/** The page's uncaught errors (a toast's button must never throw on its way out). */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

const toasts = (page: Page) => page.getByRole('region', { name: 'Notifications' }).locator('li');
const START = new Date('2026-11-22T09:00:00Z');

/** Shows a toast, holds the pointer on it past its time, then leaves it to go by itself. */
async function expectPauseOnHover(page: Page, title: string) {
  const toast = toasts(page).filter({ hasText: title });
  await expect(toast).toHaveCount(1);
  await toast.hover();
  await page.clock.runFor(12_000);
  await expect(toast).toHaveCount(1);
  await page.mouse.move(10, 700);
  await page.clock.runFor(4_000);
  await expect(toast).toHaveCount(1);
  await page.clock.runFor(1_500);
  await expect(toast).toHaveCount(0);
}

test('a toast waits while the pointer rests on it on a content page (no React)', async ({ page }) => {
  await page.clock.install({ time: START });
  await page.setViewportSize(DESKTOP);
  await page.route('**/api/form-token', (route) => route.fulfill({ json: { success: true, token: 'pause-test', field: 'formToken' } }));
  await page.route('**/api/newsletter/subscribe', (route) => route.fulfill({ status: 400, json: { success: false, message: 'Refused for this test', code: 'BAD_REQUEST' } }));
  await page.goto(PATHS.about);
  // The content page has no React: the script it runs is the enhancement entry only.
  expect(await page.evaluate(() => document.querySelectorAll('script[type="module"]').length)).toBe(1);
  const newsletter = page.locator('form[data-module="newsletter-form"]');
  await expect(newsletter).toHaveAttribute('data-ready', 'true');
  await page.clock.pauseAt(new Date('2026-11-22T10:00:00Z'));
  await newsletter.getByRole('textbox', { name: 'Email address' }).fill('reader@example.test');
  await newsletter.getByRole('button', { name: 'Subscribe' }).click();
  await page.clock.runFor(2_500); // the box waits out the form's least fill time
  await expectPauseOnHover(page, 'Subscription failed');
});

test('a toast waits while the pointer rests on it on a hydrated page', async ({ page }) => {
  await page.clock.install({ time: START });
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.contact);
  await expect(page.locator('main form[data-ready="true"]')).toBeVisible();
  await page.clock.pauseAt(new Date('2026-11-22T10:00:00Z'));
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expectPauseOnHover(page, 'Validation Error');
});

test.describe('a toast with an action', () => {
  let harness = '';
  test.beforeAll(async () => {
    const out = await build({
      entryPoints: [fileURLToPath(new URL('../fixtures/toast-harness.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'iife',
      target: 'es2022',
    });
    harness = out.outputFiles[0].text;
  });

  /** The page with the real renderer under test's control; the script comes from the page's own origin (CSP 'self'). */
  async function openWithHarness(page: Page) {
    await page.route('**/__toast-harness.js', (route) => route.fulfill({ contentType: 'text/javascript', body: harness }));
    await page.goto(PATHS.about);
    await page.addScriptTag({ url: '/__toast-harness.js' });
    await page.waitForFunction(() => typeof window.harnessToast === 'function');
  }

  const showUndo = (page: Page, durationMs?: number) =>
    page.evaluate((duration) => {
      const w = window as unknown as { undone: number };
      w.undone = 0;
      window.harnessToast({
        title: 'Status changed',
        description: 'The project is now Completed.',
        action: { label: 'Undo', onSelect: () => w.undone++ },
        durationMs: duration,
      });
    }, durationMs);
  const undone = (page: Page) => page.evaluate(() => (window as unknown as { undone: number }).undone);

  test('its button is reached with the keyboard; Enter runs the action once and closes the toast', async ({ page }) => {
    const errors = pageErrors(page);
    await page.setViewportSize(DESKTOP);
    await openWithHarness(page);
    await showUndo(page);
    const card = toasts(page).filter({ hasText: 'Status changed' });
    await expect(card.getByRole('status')).toContainText('The project is now Completed.');
    await page.getByRole('button', { name: 'Open customer support chat' }).focus();
    // Tab order: the chat button, then the toast, its action, its close button.
    await page.keyboard.press('Tab');
    await expect(card).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(card.getByRole('button', { name: 'Undo' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(card).toHaveCount(0);
    expect(await undone(page)).toBe(1);

    // A click does the same; the close button closes without running it.
    await showUndo(page);
    await card.getByRole('button', { name: 'Undo' }).click();
    await expect(card).toHaveCount(0);
    expect(await undone(page)).toBe(1);
    await showUndo(page);
    await card.getByRole('button', { name: 'Close notification' }).click();
    await expect(card).toHaveCount(0);
    expect(await undone(page)).toBe(0);
    expect(errors).toEqual([]);
  });

  test('stays for its own duration', async ({ page }) => {
    await page.clock.install({ time: START });
    await page.setViewportSize(DESKTOP);
    await openWithHarness(page);
    await page.clock.pauseAt(new Date('2026-11-22T10:00:00Z'));
    await showUndo(page, 8_000);
    const card = toasts(page).filter({ hasText: 'Status changed' });
    await page.clock.runFor(7_500);
    await expect(card).toHaveCount(1);
    await page.clock.runFor(600);
    await expect(card).toHaveCount(0);
    expect(await undone(page)).toBe(0);
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [PHONE, DESKTOP]) {
      test(`passes axe, ${theme} theme at ${viewport.width} px`, async ({ page }) => {
        await useTheme(page, theme);
        await page.setViewportSize(viewport);
        await openWithHarness(page);
        await page.evaluate(() => window.harnessToast({ title: 'Could not save', description: 'Please try again.', variant: 'destructive', action: { label: 'Retry', onSelect: () => undefined } }));
        await showUndo(page);
        await expect(toasts(page)).toHaveCount(2);
        await toasts(page).first().hover();
        await expectNoAxeViolations(page, `toasts ${theme} ${viewport.width}`, 'section[aria-label="Notifications"]');
        await page.screenshot({ path: test.info().outputPath(`toasts-${theme}-${viewport.width}.png`) });
      });
    }
  }
});
