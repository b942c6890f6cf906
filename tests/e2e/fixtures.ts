import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import type { StaffRole } from '../../common/permissions.ts';
import { beginCspWatch, cspProblems, endCspWatch, settleCspReports, watchBrowserCsp, watchCsp, type CspWatch, type ExpectedCspViolation } from './csp-watch.ts';
import { recordCookies, recordCookiesOf, recordSecret, watchApiRequests, watchBrowser, watchContext } from './secret-recorder.ts';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * Runs axe (WCAG 2.2 A and AA rules) on the page, or only on the part `include` selects (for a
 * screen already checked whole, where one piece changed), and fails with the list of violations.
 */
export async function expectNoAxeViolations(page: Page, context = '', include?: string) {
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']);
  if (include) builder.include(include);
  const results = await builder.analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id}: ${v.help} (${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(', ')})`,
  );
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/**
 * axe on the page as it is, in the light and then the dark theme, the theme switched in place (no
 * reload, so an open dialog or a half-filled form stays as it is); leaves the light theme.
 */
export async function expectNoAxeViolationsInBothThemes(page: Page, context = '', include?: string) {
  for (const theme of ['light', 'dark'] as const) {
    // The colours' transitions (buttons' `transition-colors`) run out first: axe measures what is drawn.
    await page.evaluate(async (t) => {
      document.documentElement.classList.toggle('dark', t === 'dark');
      // Transitions only: a spinner's endless animation never finishes.
      const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
      await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
    }, theme);
    await expectNoAxeViolations(page, `${context} ${theme}`, include);
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** Puts the page in the light or dark theme before any script runs. */
export async function useTheme(page: Page, theme: 'light' | 'dark') {
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
}

/** An account made by the test-only hook POST /api/test/users (the server runs with E2E_TEST_HOOKS=1). */
export interface E2EAccount {
  _id: string;
  name: string;
  role: 'admin' | 'client';
  email: string;
  /** Clients sign in with it; null for admins. */
  username: string | null;
  /** Null for an invited client who has not chosen a password yet. */
  password: string | null;
  /** Base32 TOTP secret when created with `mfa: true` (admins), to compute codes in the test. */
  mfaSecret: string | null;
}

/** Creates a user through the test-only hook and answers its credentials. */
/**
 * Opens the Account dialog by keyboard. On a phone the admin screens keep Account in the
 * navigation's menu (issue 22), so the header is awaited first: the Menu button, or Account itself.
 */
export async function openAccountDialog(page: Page) {
  const opener = page.getByRole('button', { name: 'Account' });
  const menu = page.getByRole('navigation', { name: 'Admin' }).getByRole('button', { name: /^Menu/ });
  await expect(opener.or(menu).first()).toBeVisible();
  if (!(await opener.isVisible())) await menu.click();
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Account' });
  await expect(dialog).toBeVisible();
  return dialog;
}

export async function createUserViaApi(
  request: APIRequestContext,
  input: { role: 'admin' | 'client'; name?: string; password?: string; mfa?: boolean; invited?: boolean; staffRole?: StaffRole },
): Promise<E2EAccount> {
  const res = await request.post('/api/test/users', { data: input, headers: { origin: E2E_BASE_URL } });
  if (res.status() !== 201) throw new Error(`test user not created: ${res.status()} ${await res.text()}`);
  const body = await res.json();
  // Written down for the end-of-run check that no log line holds them (decision 177).
  recordSecret('a test account password', body.password);
  recordSecret('a TOTP secret', body.mfaSecret);
  return { ...body.user, password: body.password, mfaSecret: body.mfaSecret };
}

/**
 * Signs the page's browser context in through the API (the session and 'signed in' cookies land in
 * the context, as after a real login); creates the account first unless one is given.
 */
export async function signInAs(
  page: Page,
  input: { role: 'admin' | 'client'; name?: string; account?: E2EAccount; staffRole?: StaffRole },
): Promise<E2EAccount> {
  const account = input.account ?? (await createUserViaApi(page.request, { role: input.role, name: input.name, staffRole: input.staffRole }));
  const headers = { origin: E2E_BASE_URL };
  const res =
    input.role === 'admin'
      ? await page.request.post('/api/auth/adminlogin', {
          data: { email: account.email, password: account.password },
          headers,
        })
      : await page.request.post('/api/auth/login', {
          data: { username: account.username, password: account.password },
          headers,
        });
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()} ${await res.text()}`);
  if ((await res.json()).mfa) throw new Error('this admin needs the second factor: sign in through the page instead');
  return account;
}

/**
 * Every spec's `test`. Besides Playwright's own fixtures, it watches each browser context, its
 * page.request, the `request` fixture and the contexts a test opens itself, and writes down the
 * secrets they carry: the run's last step greps the server's log for them (decision 177).
 * It also fails a test on any Content-Security-Policy violation of any page it opened (decision 117);
 * a test that provokes one on purpose declares exactly that one with
 * `test.use({ expectedCspViolations: [{ directive, blocked, page }] })`.
 */
export const test = base.extend<{ expectedCspViolations: ExpectedCspViolation[]; cspViolations: CspWatch }>({
  expectedCspViolations: [[], { option: true }],
  cspViolations: [
    async ({ expectedCspViolations }, provide) => {
      const watch = beginCspWatch();
      try {
        await provide(watch);
        // Contexts still open (the test's own ones are closed by now, after delivering theirs).
        for (const context of watch.contexts) await settleCspReports(context);
      } finally {
        endCspWatch();
      }
      const problems = cspProblems(watch.list(), expectedCspViolations);
      if (problems.length) throw new Error(problems.join('\n'));
    },
    { auto: true },
  ],
  browser: [
    async ({ browser }, provide) => {
      watchBrowser(browser);
      watchBrowserCsp(browser);
      await provide(browser);
    },
    { scope: 'worker' },
  ],
  context: async ({ context }, provide) => {
    watchContext(context);
    await watchCsp(context);
    await provide(context);
    await settleCspReports(context);
    await recordCookiesOf(context);
  },
  request: async ({ request }, provide) => {
    watchApiRequests(request);
    await provide(request);
    recordCookies((await request.storageState()).cookies);
  },
});
export { expect };

export const LOOKS = (['light', 'dark'] as const).flatMap((theme) =>
  [PHONE, DESKTOP].map((viewport) => ({ theme, viewport })),
);

/**
 * The current page in each theme at phone and desktop width: reloaded, `ready` awaited, axe-clean,
 * and a full-page screenshot to look at (named `{name}-{theme}-{width}.png`). Leaves the light theme
 * at desktop width.
 */
export async function checkEveryLook(
  page: Page,
  name: string,
  outputPath: (file: string) => string,
  ready: () => Promise<void>,
) {
  await screenshotEveryLook(page, name, outputPath, async ({ theme, viewport }) => {
    await page.reload();
    await ready();
    await expectNoAxeViolations(page, `${name} ${theme} ${viewport.width}`);
  });
}

/**
 * A full-page screenshot of the current page in each theme at phone and desktop width (named
 * `{name}-{theme}-{width}.png`), the theme switched in place: no reload, so what the test opened
 * stays open. `ready` is awaited before each. Leaves the light theme stored, at desktop width.
 */
export async function screenshotEveryLook(
  page: Page,
  name: string,
  outputPath: (file: string) => string,
  ready: (look: (typeof LOOKS)[number]) => Promise<void> = async () => {},
) {
  for (const look of LOOKS) {
    const { theme, viewport } = look;
    await page.evaluate((t) => {
      localStorage.setItem('theme', t);
      document.documentElement.classList.toggle('dark', t === 'dark');
    }, theme);
    await page.setViewportSize(viewport);
    await ready(look);
    await page.screenshot({ path: outputPath(`${name}-${theme}-${viewport.width}.png`), fullPage: true });
  }
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.setViewportSize(DESKTOP);
}

/** Holds a request until the test lets it go, to see a loading or busy state. */
export async function holdRequest(page: Page, url: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
