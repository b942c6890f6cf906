import { mkdirSync } from 'node:fs';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, LOOKS, createUserViaApi, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';

// Issue 23, least privilege (decision 273): an editor signs in and the admin area shows only what an
// editor may use. No Clients & projects link; the clients view, opened directly, says plainly that
// the page is not theirs; the server refuses the clients list with the access layer's 403.

const SHOTS = 'test-results/staff-roles';
mkdirSync(SHOTS, { recursive: true });

test('an editor sees only the editor places, and the clients view and API refuse them', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const client = await createUserViaApi(page.request, { role: 'client', name: 'Ikorodu Freight' });
  await signInAs(page, { role: 'admin', name: 'Eda Editor', staffRole: 'editor' });

  // The clients view of the dashboard, opened directly.
  await page.goto(`${PATHS.adminDashboard}?client=${encodeURIComponent(client._id)}`);
  await expect(page.getByRole('heading', { name: 'You do not have access to this page', level: 2 })).toBeVisible();
  await expect(page.getByText('Ikorodu Freight')).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await expect(nav.getByRole('link', { name: 'Blog management' })).toBeVisible();
  await expect(nav.getByRole('link')).toHaveText(['Subscribers', 'Newsletter', 'Blog management', 'Website', 'Media']);
  await expect(nav.getByRole('link', { name: /Clients/ })).toHaveCount(0);
  // No staff search either: it searches projects and clients.
  await expect(page.getByRole('searchbox')).toHaveCount(0);

  // The server says the same, whatever the page shows.
  const refused = await page.request.get('/api/users/clients');
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, code: 'FORBIDDEN', message: 'You do not have access to this resource' });
  const me = await (await page.request.get('/api/auth/me')).json();
  expect(me.user).toMatchObject({ role: 'admin', staffRole: 'editor', permissions: ['content.write', 'blog.write', 'newsletter.write'] });

  // The places offered instead lead somewhere the editor may be.
  await page.getByRole('region', { name: 'You do not have access to this page' }).getByRole('link', { name: 'Blog management' }).click();
  await expect(page).toHaveURL(PATHS.blogList);
  await expect(page.getByRole('heading', { name: 'Blog Management', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toHaveCount(0);

  // The dashboard is where sign-in lands: an editor goes on to the first place an editor may use.
  await page.goto(PATHS.adminDashboard);
  await expect(page).toHaveURL(PATHS.adminNewsletterSubscribers);
  await page.goto(`${PATHS.adminDashboard}?client=${encodeURIComponent(client._id)}`);
  for (const { theme, viewport } of LOOKS) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.setViewportSize(viewport);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
    await expectNoAxeViolations(page, `editor's admin view ${theme} ${viewport.width}`);
    await page.screenshot({ path: `${SHOTS}/editor-admin-${theme}-${viewport.width}.png`, fullPage: true });
  }
});
