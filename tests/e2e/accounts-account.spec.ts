import { mkdirSync } from 'node:fs';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { base32Decode, totp } from '../../server/modules/auth/totp.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, openAccountDialog, signInAs, test, useTheme as withTheme } from './fixtures.ts';

const SHOTS = 'test-results/accounts-screens';
mkdirSync(SHOTS, { recursive: true });

test.describe('changing the password from a dashboard', () => {
  test('a client changes the password in the Account dialog; its other session ends, this one stays', async ({ page, browser }) => {
    const client = await createUserViaApi(page.request, { role: 'client', name: 'Okrika Haulage' });
    const newPassword = 'cranes along the river bank';
    // The same client, signed in on another device.
    const other = await browser.newContext({ baseURL: E2E_BASE_URL });
    try {
      const otherPage = await other.newPage();
      await signInAs(otherPage, { role: 'client', account: client });
      await otherPage.goto(PATHS.clientDashboard);
      await expect(otherPage.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();

      await signInAs(page, { role: 'client', account: client });
      await page.goto(PATHS.clientDashboard);
      const dialog = await openAccountDialog(page);
      await expect(dialog.getByRole('heading', { name: 'Change password' })).toBeVisible();
      // Staff-only settings are not offered to clients.
      await expect(dialog.getByRole('heading', { name: 'Two-step verification' })).toHaveCount(0);

      await dialog.getByLabel('Current password', { exact: true }).fill('not my password at all');
      await dialog.getByLabel('New password', { exact: true }).fill(newPassword);
      await dialog.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
      await dialog.getByRole('button', { name: 'Change Password' }).click();
      await expect(dialog.getByRole('alert').filter({ hasText: 'The current password is not correct.' })).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: 'Password Not Changed' })).toBeVisible();

      await dialog.getByLabel('Current password', { exact: true }).fill(client.password!);
      await dialog.getByRole('button', { name: 'Change Password' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Password Changed' })).toContainText('Other devices have been signed out.');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: 'Account' })).toBeFocused();

      // The other device is signed out; this one is not.
      expect((await otherPage.request.get('/api/auth/me')).status()).toBe(401);
      await otherPage.reload();
      await expect(otherPage).toHaveURL(PATHS.clientLogin);
      await page.reload();
      await expect(page.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();

      // The old password no longer signs in; the new one does.
      await otherPage.getByLabel('Username').fill(client.username!);
      await otherPage.getByLabel('Password', { exact: true }).fill(client.password!);
      await otherPage.getByRole('button', { name: 'Sign In' }).click();
      await expect(otherPage.locator('form').getByRole('alert')).toHaveText('Invalid username or password.');
      await otherPage.getByLabel('Password', { exact: true }).fill(newPassword);
      await otherPage.getByRole('button', { name: 'Sign In' }).click();
      await expect(otherPage).toHaveURL(PATHS.clientDashboard);
    } finally {
      await other.close();
    }
  });

  test('the Account dialog opens and closes from the keyboard on the admin dashboard too', async ({ page }) => {
    await signInAs(page, { role: 'admin' });
    await page.goto(PATHS.adminDashboard);
    const dialog = await openAccountDialog(page);
    await expect(dialog.getByRole('heading', { name: 'Change password' })).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Account' })).toBeFocused();
  });
});

test('an admin turns on two-step verification by QR code from the Account dialog, then signs in with a code', async ({ page }) => {
  const admin = await createUserViaApi(page.request, { role: 'admin', name: 'Ifeoma Staff' });
  await signInAs(page, { role: 'admin', account: admin });
  await page.goto(PATHS.adminDashboard);
  const dialog = await openAccountDialog(page);
  const section = dialog.getByRole('region', { name: 'Two-step verification' });
  await expect(section).toContainText('Off.');
  await section.getByRole('button', { name: 'Turn on two-step verification' }).click();

  // The password again, first.
  const password = section.getByLabel('Password', { exact: true });
  await expect(password).toBeFocused();
  await password.fill('certainly not it');
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByRole('alert').filter({ hasText: 'The password is not correct.' })).toBeVisible();
  await password.fill(admin.password!);
  await section.getByRole('button', { name: 'Continue' }).click();

  // The QR code, and the same key as text for people who cannot scan.
  await expect(section.getByRole('heading', { name: 'Set up two-step verification' })).toBeFocused();
  const qr = section.getByRole('img', { name: 'QR code to add this account to an authenticator app' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
  const key = ((await section.locator('code').textContent()) ?? '').replace(/\s+/g, '');
  expect(key).toMatch(/^[A-Z2-7]{16,}$/);
  await expectNoAxeViolations(page, 'second factor set-up in the Account dialog');
  await page.screenshot({ path: `${SHOTS}/account-mfa-setup-light-1280.png`, fullPage: false });

  await section.getByLabel('Authentication code').fill('000000');
  await section.getByRole('button', { name: 'Turn On' }).click();
  await expect(section.getByRole('alert').filter({ hasText: 'That code is not valid' })).toBeVisible();
  await section.getByLabel('Authentication code').fill(totp(base32Decode(key), Date.now()));
  await section.getByRole('button', { name: 'Turn On' }).click();

  await expect(section.getByRole('heading', { name: 'Save your recovery codes' })).toBeFocused();
  await expect(section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await section.getByRole('button', { name: 'I have saved my codes, continue' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Two-step verification is on' })).toBeVisible();
  await expect(section).toContainText('On.');
  await expect(section).toContainText('10 recovery codes left.');
  await expect(section.getByRole('heading', { name: 'Two-step verification' })).toBeFocused();
  await page.keyboard.press('Escape');

  // This session was renewed and goes on; the next sign-in asks for a code.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(PATHS.adminLogin);
  await page.getByLabel('Email').fill(admin.email);
  await page.getByLabel('Password', { exact: true }).fill(admin.password!);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  // The code of the next 30-second step (accepted: one step of drift either way); the one just used cannot come back.
  await page.getByLabel('Authentication code').fill(totp(base32Decode(key), Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(PATHS.adminDashboard);
  const again = await openAccountDialog(page);
  await expect(again.getByRole('region', { name: 'Two-step verification' })).toContainText('On.');
});

test('the Account dialog is axe-clean and fits phone and desktop screens, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, { role: 'admin' });
  for (const theme of ['light', 'dark'] as const) {
    await withTheme(page, theme);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(PATHS.adminDashboard);
      const dialog = await openAccountDialog(page);
      await expect(dialog.getByRole('region', { name: 'Two-step verification' })).toContainText('Off.');
      await dialog.getByRole('button', { name: 'Change Password' }).click();
      await expect(dialog.getByText('Enter your current password.')).toBeVisible();
      await expectNoAxeViolations(page, `account dialog ${theme} ${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/account-dialog-${theme}-${viewport.width}.png`, fullPage: false });
      await dialog.getByRole('button', { name: 'Turn on two-step verification' }).click();
      await expect(dialog.getByLabel('Password', { exact: true })).toBeFocused();
      await expectNoAxeViolations(page, `account dialog password step ${theme} ${viewport.width}`);
      await page.keyboard.press('Escape');
    }
  }
  await signInAs(page, { role: 'client' });
  await withTheme(page, 'dark');
  await page.setViewportSize(PHONE);
  await page.goto(PATHS.clientDashboard);
  await openAccountDialog(page);
  await expectNoAxeViolations(page, 'client account dialog dark 390');
  await page.screenshot({ path: `${SHOTS}/account-dialog-client-dark-390.png`, fullPage: false });
});
