import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { base32Decode, hotp, timeStep } from '../../server/modules/auth/totp.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, openAccountDialog, test, useTheme as withTheme, type E2EAccount } from './fixtures.ts';

// Managing an active second factor from the Account dialog (docs/decisions/081-managing-the-second-factor.md).

const SHOTS = 'test-results/accounts-screens';
mkdirSync(SHOTS, { recursive: true });

/**
 * Authenticator codes computed from a key, as a phone would. The server accepts one step either
 * side of its own and each step only once, so every code here takes a step not used before: the
 * next one first (still valid if the clock crosses into the next step), then the current one, then
 * the previous one (only when not about to expire).
 */
function authenticator(key: string) {
  const used = new Set<number>();
  return () => {
    const now = timeStep(Date.now());
    const safe = (step: number) => step >= timeStep(Date.now() + 5_000) - 1;
    const step = [now + 1, now, now - 1].find((s) => !used.has(s) && safe(s));
    if (step === undefined) throw new Error('no unused time step left for this key; the test uses too many codes');
    used.add(step);
    return hotp(base32Decode(key), step);
  };
}

/** The code a key shows right now (for answers the server refuses before or without spending it). */
const codeOf = (key: string) => hotp(base32Decode(key), timeStep(Date.now()));

/** Signs an admin with an authenticator in through the login page (password, then code). */
async function signInWithCode(page: Page, admin: E2EAccount, code: string) {
  await page.goto(PATHS.adminLogin);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password!);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByLabel('Authentication code')).toBeFocused();
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(PATHS.adminDashboard);
}

async function openAccount(page: Page) {
  const dialog = await openAccountDialog(page);
  return dialog.getByRole('region', { name: 'Two-step verification' });
}

/** Moves focus to a button by keyboard alone (Tab from the section heading) and presses it. */
async function pressByKeyboard(page: Page, section: Locator, name: string) {
  await section.getByRole('heading', { name: 'Two-step verification' }).focus();
  const target = section.getByRole('button', { name });
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(target).toBeFocused();
  await page.keyboard.press('Enter');
}

test('an admin makes new recovery codes, moves to a new phone and turns two-step verification off, from the keyboard', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await createUserViaApi(page.request, { role: 'admin', name: 'Chidi Staff', mfa: true });
  const oldPhone = authenticator(admin.mfaSecret!);
  await signInWithCode(page, admin, oldPhone());
  const section = await openAccount(page);
  await expect(section).toContainText('On.');
  // The test hook turns the factor on without recovery codes.
  await expect(section).toContainText('0 recovery codes left.');

  // New recovery codes: password and a current code.
  await pressByKeyboard(page, section, 'New recovery codes');
  await expect(section.getByRole('heading', { name: 'New recovery codes' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(section.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type('not my password');
  // The password is checked first, so this code is not spent.
  await section.getByLabel('Authentication code').fill(codeOf(admin.mfaSecret!));
  await page.keyboard.press('Enter');
  await expect(section.getByRole('alert').filter({ hasText: 'The password is not correct.' })).toBeVisible();
  await expect(section.getByLabel('Password', { exact: true })).toBeFocused();
  await expect(section.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await section.getByLabel('Password', { exact: true }).fill(admin.password!);
  await section.getByLabel('Authentication code').fill(oldPhone());
  await section.getByRole('button', { name: 'Get New Codes' }).press('Enter');
  await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  const codes = (await section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  await section.getByRole('button', { name: 'I have saved my codes, continue' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'New recovery codes' })).toContainText('Your old recovery codes no longer work.');
  await expect(section.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
  await expect(section).toContainText('10 recovery codes left.');

  // A new phone, with a recovery code standing in for the lost one.
  await pressByKeyboard(page, section, 'Set up a new authenticator');
  await expect(section.getByRole('heading', { name: 'Set up a new authenticator' })).toBeFocused();
  await expectNoAxeViolations(page, 'new authenticator: password and code');
  await section.getByLabel('Password', { exact: true }).fill(admin.password!);
  await section.getByLabel('Authentication or recovery code').fill(codes[0]);
  await section.getByRole('button', { name: 'Continue' }).press('Enter');
  await expect(section.getByRole('heading', { name: 'Scan the new QR code' })).toBeFocused();
  await expect(section.getByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeVisible();
  const newKey = ((await section.locator('code').textContent()) ?? '').replace(/\s+/g, '');
  expect(newKey).toMatch(/^[A-Z2-7]{32}$/);
  expect(newKey).not.toBe(admin.mfaSecret);
  await expectNoAxeViolations(page, 'new authenticator: QR code');
  await page.screenshot({ path: `${SHOTS}/account-mfa-new-phone-light-1280.png` });
  const newPhone = authenticator(newKey);
  await section.getByLabel('Authentication code').fill('000000');
  await section.getByRole('button', { name: 'Confirm' }).press('Enter');
  await expect(section.getByRole('alert').filter({ hasText: 'That code is not valid' })).toBeVisible();
  await section.getByLabel('Authentication code').fill(newPhone());
  await section.getByRole('button', { name: 'Confirm' }).press('Enter');
  await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  await section.getByRole('button', { name: 'I have saved my codes, continue' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'New authenticator set up' })).toContainText('the old one no longer works');
  await expect(section.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
  await expect(section).toContainText('10 recovery codes left.');

  // Turning it off: the old phone's code is refused now, the new one's accepted.
  await pressByKeyboard(page, section, 'Turn off two-step verification');
  await expect(section.getByRole('heading', { name: 'Turn off two-step verification' })).toBeFocused();
  await section.getByLabel('Password', { exact: true }).fill(admin.password!);
  await section.getByLabel('Authentication or recovery code').fill(codeOf(admin.mfaSecret!));
  await section.getByRole('button', { name: 'Turn Off' }).press('Enter');
  await expect(section.getByRole('alert').filter({ hasText: 'That code is not valid' })).toBeVisible();
  await expect(section.getByLabel('Authentication or recovery code')).toBeFocused();
  await page.keyboard.type(newPhone());
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Two-step verification is off' })).toBeVisible();
  await expect(section.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
  await expect(section).toContainText('Off.');
  await expect(section.getByRole('button', { name: 'Turn on two-step verification' })).toBeVisible();
  await page.keyboard.press('Escape');

  // The next sign-in asks for the password only.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(PATHS.adminLogin);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password!);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(PATHS.adminDashboard);
});

// One test per theme: 10 axe runs each; a loaded CI machine could not fit all 20 in one test's three minutes.
for (const theme of ['light', 'dark'] as const) {
  test(`the management steps are axe-clean and fit phone and desktop screens, ${theme}`, async ({ page }) => {
    test.setTimeout(180_000);
    await withTheme(page, theme);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      // Signed out: the login page would send a signed-in admin straight to the dashboard.
      await page.context().clearCookies();
      const admin = await createUserViaApi(page.request, { role: 'admin', mfa: true });
      const phone = authenticator(admin.mfaSecret!);
      await signInWithCode(page, admin, phone());
      const section = await openAccount(page);
      await expect(section.getByRole('button', { name: 'Turn off two-step verification' })).toBeVisible();
      await expectNoAxeViolations(page, `second factor on ${theme} ${viewport.width}`);
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/account-mfa-on-${theme}-${viewport.width}.png` });

      const steps = [
        { button: 'New recovery codes', heading: 'New recovery codes', shot: 'recovery' },
        { button: 'Turn off two-step verification', heading: 'Turn off two-step verification', shot: 'turn-off' },
        { button: 'Set up a new authenticator', heading: 'Set up a new authenticator', shot: 'new-phone' },
      ];
      for (const step of steps) {
        await section.getByRole('button', { name: step.button }).click();
        await expect(section.getByRole('heading', { name: step.heading })).toBeFocused();
        // Submitted empty: the field messages show (and are checked by axe too).
        await section.getByRole('button', { name: /Get New Codes|Turn Off|Continue/ }).click();
        await expect(section.getByText('Enter your password.')).toBeVisible();
        await expect(section.getByLabel('Password', { exact: true })).toBeFocused();
        await expectNoAxeViolations(page, `${step.shot} step ${theme} ${viewport.width}`);
        await page.screenshot({ path: `${SHOTS}/account-mfa-${step.shot}-${theme}-${viewport.width}.png` });
        if (step.shot !== 'new-phone') {
          await section.getByRole('button', { name: 'Cancel' }).click();
          await expect(section.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
        }
      }
      // On to the QR code of the new phone.
      await section.getByLabel('Password', { exact: true }).fill(admin.password!);
      await section.getByLabel('Authentication or recovery code').fill(phone());
      await section.getByRole('button', { name: 'Continue' }).click();
      await expect(section.getByRole('heading', { name: 'Scan the new QR code' })).toBeFocused();
      await expectNoAxeViolations(page, `new phone QR ${theme} ${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/account-mfa-new-phone-qr-${theme}-${viewport.width}.png` });
      await page.keyboard.press('Escape');
    }
  });
}
