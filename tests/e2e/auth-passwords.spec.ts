import {
  DESKTOP,
  PHONE,
  createUserViaApi,
  expect,
  expectNoAxeViolations,
  test,
  useTheme as withTheme,
} from './fixtures.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { latestMail, linkIn } from './outbox.ts';

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = 'test-results/auth-screens';
const NEW_PASSWORD = 'harbour lights at nine';

test('an invited client chooses a password from the link and signs in with the username shown', async ({
  page,
  request,
}) => {
  const admin = await createUserViaApi(request, { role: 'admin' });
  expect(
    (
      await request.post('/api/auth/adminlogin', {
        data: { email: admin.email, password: admin.password },
        headers: ORIGIN,
      })
    ).ok(),
  ).toBe(true);
  const email = `invited-${Date.now()}@example.test`;
  const created = await request.post('/api/users/clients', {
    data: { name: 'Invited Client Ltd', email },
    headers: ORIGIN,
  });
  expect(created.status()).toBe(201);
  const { invitationUrl, client } = await created.json();
  const link = new URL(invitationUrl);
  expect(link.pathname).toBe(PATHS.setPassword);
  expect(link.hash).toMatch(/^#token=/);

  await page.goto(link.pathname + link.hash);
  await expect(page.getByText(`Your username: ${client.username}`)).toBeVisible();
  // The token leaves the address bar once read.
  expect(new URL(page.url()).hash).toBe('');
  await expectNoAxeViolations(page, 'set password');
  await page.screenshot({ path: `${SHOTS}/set-password-light-1280.png`, fullPage: true });

  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.getByText('The password must be at least 12 characters long.')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('password12345');
  await page.getByLabel('Confirm new password', { exact: true }).fill('password12345');
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page.locator('form').getByRole('alert')).toContainText('too common');
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await expect(page).toHaveURL(PATHS.clientLogin);
  await expect(page.getByRole('status').filter({ hasText: 'Password Set' })).toBeVisible();

  await page.getByLabel('Username').fill(client.username);
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(PATHS.clientDashboard);

  // The link is single use.
  await page.context().clearCookies();
  await page.goto(link.pathname + link.hash);
  await expect(page.getByRole('alert').first()).toContainText('no longer valid');
});

test('forgot password answers the same for any account; the mailed link resets the password once', async ({ page }) => {
  const client = await createUserViaApi(page.request, { role: 'client' });
  await page.goto(PATHS.clientLogin);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(PATHS.forgotPassword);
  await page.getByLabel('Username or email').fill('no-such-user');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  const answer = page.getByRole('status').filter({ hasText: 'If an account matches' });
  await expect(answer).toBeVisible();
  const unknownText = await answer.textContent();

  await page.goto(PATHS.forgotPassword);
  await page.getByLabel('Username or email').fill(client.username!);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'If an account matches' })).toHaveText(unknownText!);

  const link = linkIn(await latestMail(client.email, 'password-reset'));
  await page.goto(link.pathname + link.hash);
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(PATHS.clientLogin);
  await expect(page.getByRole('status').filter({ hasText: 'Password Reset' })).toBeVisible();

  // A used link says so as soon as the page opens (issue 13), before any password is typed.
  await page.goto(link.pathname + link.hash);
  await expect(page.getByRole('alert').filter({ hasText: 'no longer valid' })).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
});

test('the admin login offers its own forgot-password page, back to the admin login', async ({ page }) => {
  await page.goto(PATHS.adminLogin);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByLabel('Email', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(PATHS.adminLogin);
});

for (const theme of ['light', 'dark'] as const) {
  test(`the password pages are axe-clean at phone and desktop sizes, ${theme}`, async ({ page }) => {
    // Six axe walks: a loaded two-core machine needs more than the default minute for them.
    test.setTimeout(150_000);
    // A live reset link, so the page shows its form (an unknown token is refused when the page opens).
    const client = await createUserViaApi(page.request, { role: 'client' });
    await page.goto(PATHS.forgotPassword);
    await page.getByLabel('Username or email').fill(client.username!);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'If an account matches' })).toBeVisible();
    const link = linkIn(await latestMail(client.email, 'password-reset'));
    await withTheme(page, theme);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(PATHS.forgotPassword);
      await expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible();
      await expectNoAxeViolations(page, `forgot ${theme} ${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/forgot-${theme}-${viewport.width}.png`, fullPage: true });
      await page.goto(link.pathname + link.hash);
      await expect(page.getByRole('button', { name: 'Reset Password' })).toBeVisible();
      await expectNoAxeViolations(page, `reset ${theme} ${viewport.width}`);
      // A new document (from the same path, only the fragment would change and nothing would reload).
      await page.goto(PATHS.forgotPassword);
      await page.goto(`${PATHS.resetPassword}#token=${'x'.repeat(43)}`);
      await expect(page.getByRole('alert').filter({ hasText: 'no longer valid' })).toBeVisible();
      await expectNoAxeViolations(page, `reset, unknown link ${theme} ${viewport.width}`);
      await page.screenshot({ path: `${SHOTS}/reset-${theme}-${viewport.width}.png`, fullPage: true });
    }
  });
}
