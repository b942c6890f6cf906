import { mkdirSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test, useTheme as withTheme, holdRequest } from './fixtures.ts';

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = 'test-results/accounts-screens';
mkdirSync(SHOTS, { recursive: true });

/** One failed sign-in with an account nobody has (audited as unknown-account). */
async function unknownAttempt(request: APIRequestContext, account: string) {
  const res = await request.post('/api/auth/login', { data: { username: account, password: 'wrong password' }, headers: ORIGIN });
  expect(res.status()).toBe(401);
}

/**
 * Successful client sign-ins, to fill more than one page of the audit. Failures would do it faster,
 * but every test shares 127.0.0.1, and 30 failures from one address in 15 minutes limit it for all.
 */
async function successfulSignIns(request: APIRequestContext, count: number) {
  const client = await createUserViaApi(request, { role: 'client' });
  for (let i = 0; i < count; i++) {
    const res = await request.post('/api/auth/login', { data: { username: client.username, password: client.password }, headers: ORIGIN });
    expect(res.status()).toBe(200);
  }
  return client;
}

test('staff read the login audit from the dashboard: time, address, account and result, newest first, page by page', async ({ page, request }) => {
  test.setTimeout(120_000);
  const ghost = `ghost-${Date.now().toString(36)}`;
  const client = await successfulSignIns(request, 51);
  await unknownAttempt(request, ghost);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  await page.goto(PATHS.adminDashboard);
  await page.getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(PATHS.adminSecurity);
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();

  const table = page.getByRole('table', { name: 'Sign-in attempts, newest first' });
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Time', 'Address', 'Account', 'Result']);
  const ghostRow = table.getByRole('row').filter({ hasText: ghost });
  await expect(ghostRow).toContainText('Unknown account');
  await expect(ghostRow).toContainText('Client login');
  await expect(ghostRow.getByRole('cell').nth(1)).toHaveText(/127\.0\.0\.1/);
  await expect(ghostRow.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  await expect(table.getByRole('row').filter({ hasText: client.username! }).first()).toContainText('Signed in');
  // Newest first: the times never increase down the page.
  const times = await table.locator('tbody time').evaluateAll((els) => els.map((e) => Date.parse(e.getAttribute('datetime')!)));
  expect(times).toEqual([...times].sort((a, b) => b - a));

  // Paging (50 a page): the 52 attempts of this test alone make at least two pages.
  const pager = page.getByRole('navigation', { name: 'Pages of sign-in attempts' });
  await expect(pager).toContainText(/Page 1 of [2-9]\d* · \d+ attempts/);
  await expect(pager.getByRole('button', { name: 'Previous' })).toBeDisabled();
  const firstOnPage1 = await table.locator('tbody tr').first().textContent();
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${PATHS.adminSecurity}?page=2`);
  await expect(pager).toContainText(/Page 2 of/);
  await expect(table.locator('tbody tr').first()).not.toHaveText(firstOnPage1!);
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(pager).toContainText(/Page 1 of/);

  // Filter by result: only that result, back to page 1; one that never happened here shows the empty state.
  await page.getByLabel('Result', { exact: true }).selectOption({ label: 'Unknown account' });
  await expect(page).toHaveURL(`${PATHS.adminSecurity}?result=unknown-account`);
  await expect(ghostRow).toHaveCount(1);
  // The previous page stays on screen until the filtered one arrives: wait for the swap.
  await expect
    .poll(async () => new Set(await table.locator('tbody tr td:last-child').allTextContents()))
    .toEqual(new Set(['Unknown account']));
  await page.getByLabel('Result', { exact: true }).selectOption({ label: 'Address not allowed' });
  await expect(page.getByText('No sign-in attempts with this result')).toBeVisible();
  await expect(table).toBeHidden();
});

test('shows the loading state, then a failure with a way to try again', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  const release = await holdRequest(page, '**/api/auth/audit?*');
  await page.goto(PATHS.adminSecurity);
  await expect(page.getByRole('status').filter({ hasText: 'Loading sign-in attempts...' })).toBeVisible();
  release();
  await expect(page.getByRole('table', { name: 'Sign-in attempts, newest first' })).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });

  // The server fails (after the portal's usual retries): the panel says so, and Try again recovers.
  await page.route('**/api/auth/audit?*', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'UNAVAILABLE', message: 'The database is not reachable' }) }),
  );
  await page.goto(`${PATHS.adminSecurity}?result=success`);
  const failure = page.getByRole('region', { name: 'Sign-in attempts' }).getByRole('alert').filter({ hasText: 'Failed to load the login audit' });
  await expect(failure).toContainText('The database is not reachable', { timeout: 30_000 });
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load the login audit' }).first()).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });
  await failure.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('table', { name: 'Sign-in attempts, newest first' })).toBeVisible();
});

test('is for staff only: a client is sent away', async ({ page }) => {
  await signInAs(page, { role: 'client' });
  await page.goto(PATHS.adminSecurity);
  await expect(page).toHaveURL(PATHS.clientDashboard);
  expect((await page.request.get('/api/auth/audit')).status()).toBe(403);
});

test('is axe-clean and fits phone and desktop screens, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  await unknownAttempt(page.request, `someone-who-is-not-a-client-${Date.now().toString(36)}`);
  await signInAs(page, { role: 'admin' });
  for (const theme of ['light', 'dark'] as const) {
    await withTheme(page, theme);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(PATHS.adminSecurity);
      const list = viewport === PHONE ? page.getByRole('list', { name: 'Sign-in attempts' }) : page.getByRole('table', { name: 'Sign-in attempts, newest first' });
      await expect(list).toBeVisible();
      await expectNoAxeViolations(page, `security ${theme} ${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/security-${theme}-${viewport.width}.png`, fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  }
});
