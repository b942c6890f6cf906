import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test, useTheme as setTheme } from './fixtures.ts';

// Screenshots for people to look at (not compared by the test).
const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/admin-nav-shots';
mkdirSync(SHOTS, { recursive: true });

/** The one admin navigation's links, in order (issue 22, decision 254). */
const LINKS = [
  { name: 'Clients & projects', href: PATHS.adminDashboard },
  { name: 'Vendor applications', href: PATHS.adminVendorApplications },
  { name: 'Contact messages', href: PATHS.adminContactMessages },
  { name: 'Subscribers', href: PATHS.adminNewsletterSubscribers },
  { name: 'Newsletter', href: PATHS.adminNewsletter },
  { name: 'Blog management', href: PATHS.blogList },
  { name: 'Website', href: PATHS.adminWebsite },
  { name: 'Media', href: PATHS.adminMedia },
  { name: 'Support chat', href: PATHS.adminChat },
  { name: 'Finance', href: PATHS.adminFinance },
  { name: 'Invoice settings', href: PATHS.adminFinanceSettings },
  { name: 'Security', href: PATHS.adminSecurity },
  { name: 'Audit log', href: PATHS.adminAuditLog },
  // Owners only (staff.manage, decision 275); the test's staff are owners.
  { name: 'Staff', href: PATHS.adminStaff },
];

/** Every admin screen, its heading and the link that is the current place there. */
const SCREENS = [
  { path: PATHS.adminDashboard, heading: 'Admin Dashboard', current: 'Clients & projects' },
  { path: PATHS.adminVendorApplications, heading: 'Vendor Applications', current: 'Vendor applications' },
  { path: PATHS.adminContactMessages, heading: 'Contact Messages', current: 'Contact messages' },
  { path: PATHS.adminNewsletterSubscribers, heading: 'Newsletter Subscribers', current: 'Subscribers' },
  { path: PATHS.adminNewsletter, heading: 'Newsletter', current: 'Newsletter' },
  { path: PATHS.blogList, heading: 'Blog Management', current: 'Blog management' },
  // A page under the blog is still the blog's place.
  { path: PATHS.blogNew, heading: 'New Blog Post', current: 'Blog management' },
  { path: PATHS.adminMedia, heading: 'Media', current: 'Media' },
  { path: PATHS.adminChat, heading: 'Support Chat', current: 'Support chat' },
  { path: PATHS.adminFinance, heading: 'Finance', current: 'Finance' },
  { path: PATHS.adminFinanceSettings, heading: 'Invoice settings', current: 'Invoice settings' },
  { path: PATHS.adminWebsite, heading: 'Website', current: 'Website' },
  { path: PATHS.adminSecurity, heading: 'Security', current: 'Security' },
  { path: PATHS.adminAuditLog, heading: 'Audit log', current: 'Audit log' },
  { path: PATHS.adminStaff, heading: 'Staff', current: 'Staff' },
];

const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });
const link = (page: Page, name: string) => nav(page).getByRole('link', { name: new RegExp(`^${name}`) });

/** A client's message to staff, so the navigation has an unread count to show. */
async function unreadMessageForStaff(page: Page, browser: Browser) {
  const client = await createUserViaApi(page.request, { role: 'client', name: `Nav Client ${Date.now().toString(36)}` });
  const res = await page.request.post('/api/projects', {
    data: { name: `Nav project ${Date.now().toString(36)}`, code: `NAV-${Date.now().toString(36)}`.toUpperCase(), clientId: client._id },
    headers: { origin: E2E_BASE_URL },
  });
  expect(res.status()).toBe(201);
  const project = (await res.json()).project as { _id: string };
  const context = await browser.newContext({ baseURL: E2E_BASE_URL });
  const clientPage = await context.newPage();
  await signInAs(clientPage, { role: 'client', account: client });
  const sent = await clientPage.request.post('/api/messages', { data: { subject: 'Question', text: 'When do the piles arrive?', projectId: project._id }, headers: { origin: E2E_BASE_URL } });
  expect(sent.status()).toBe(201);
  await context.close();
}

test('every admin screen has the same navigation: each link, the current place marked, the counts', async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signInAs(page, { role: 'admin', name: 'Nav Staff' });
  await unreadMessageForStaff(page, browser);
  const unread = (await (await page.request.get('/api/messages/unread')).json()).total as number;
  const counts = await (await page.request.get('/api/submissions/counts')).json();
  expect(unread).toBeGreaterThan(0);
  await page.setViewportSize(DESKTOP);

  for (const screen of SCREENS) {
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { name: screen.heading, level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(1);
    // Wide: the links show without a menu button.
    await expect(nav(page).getByRole('button', { name: /^Menu/ })).toBeHidden();
    for (const l of LINKS) {
      await expect(link(page, l.name), `${screen.path}: ${l.name}`).toHaveAttribute('href', l.href);
      await expect(link(page, l.name)).toBeVisible();
    }
    await expect(nav(page).getByRole('button', { name: 'Account' })).toBeVisible();
    const current = nav(page).locator('[aria-current="page"]');
    await expect(current, screen.path).toHaveCount(1);
    await expect(current).toHaveAccessibleName(new RegExp(`^${screen.current}`));
    // The counts the dashboard reads, named for screen readers.
    await expect(link(page, 'Clients & projects')).toHaveAccessibleName(new RegExp(`^Clients & projects ?, ${unread} unread messages$`));
    if (counts.unreadMessages > 0) await expect(link(page, 'Contact messages')).toHaveAccessibleName(new RegExp(`^Contact messages ?, ${counts.unreadMessages} unread$`));
    if (counts.newApplications > 0) await expect(link(page, 'Vendor applications')).toHaveAccessibleName(new RegExp(`^Vendor applications ?, ${counts.newApplications} new$`));
    // The old menus are gone: no second list of the same links in the header.
    await expect(page.locator('header').getByRole('link', { name: /^Security/ })).toHaveCount(1);
  }
  // Decision 288 (was 254's one row): at 1280 px an owner's fifteen places, counts and Account
  // included, show without a menu in at most two rows (a row is one 44 px target high).
  const top = async (l: ReturnType<typeof link>) => (await l.boundingBox())!.y;
  const rows = (await top(nav(page).getByRole('button', { name: 'Account' }))) - (await top(link(page, 'Clients & projects')));
  expect(rows).toBeLessThanOrEqual(44);
  for (const { name } of LINKS) await expect(link(page, name)).toBeVisible();
  await page.locator('header').screenshot({ path: `${SHOTS}/nav-counts-light-1280.png` });
  // On a phone the Menu button carries the sum, so what waits shows with the panel closed.
  await page.setViewportSize(PHONE);
  const menu = nav(page).getByRole('button', { name: /^Menu/ });
  await expect(menu).toHaveAccessibleName(new RegExp(`^Menu ?, ${unread + counts.unreadMessages + counts.newApplications} waiting$`));
  await menu.click();
  await page.locator('header').screenshot({ path: `${SHOTS}/nav-counts-light-390.png` });
});

test('at 390 px a Menu button opens and closes the navigation by keyboard; Escape closes it and gives the focus back', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, { role: 'admin', name: 'Phone Staff' });
  await page.setViewportSize(PHONE);
  await page.goto(PATHS.adminContactMessages);
  const menu = nav(page).getByRole('button', { name: /^Menu/ });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(link(page, 'Security')).toBeHidden();
  // Closed, the navigation is one row, not four rows of links before the content.
  expect((await nav(page).boundingBox())!.height).toBeLessThan(60);

  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  for (const l of LINKS) await expect(link(page, l.name)).toBeVisible();
  await expect(link(page, 'Contact messages')).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Tab');
  await expect(link(page, 'Clients & projects')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(link(page, 'Clients & projects')).toBeHidden();
  await expect(menu).toBeFocused();

  // Space toggles it too; Enter again closes.
  await page.keyboard.press('Space');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  // A link chosen from the panel: the new page starts with the menu closed and marks its place.
  await page.keyboard.press('Enter');
  await link(page, 'Security').focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(PATHS.adminSecurity);
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await menu.click();
  await expect(link(page, 'Security')).toHaveAttribute('aria-current', 'page');
  // A click elsewhere closes it.
  await page.getByRole('heading', { name: 'Security', level: 1 }).click();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test('the admin navigation is axe-clean at 390 and 1280 px, light and dark (screenshots)', async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, { role: 'admin', name: 'Look Staff' });
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(PATHS.adminNewsletterSubscribers);
      await expect(page.getByRole('heading', { name: 'Newsletter Subscribers', level: 1 })).toBeVisible();
      if (viewport === PHONE) {
        await page.screenshot({ path: `${SHOTS}/nav-closed-${theme}-${viewport.width}.png` });
        await nav(page).getByRole('button', { name: /^Menu/ }).click();
        await expect(link(page, 'Security')).toBeVisible();
      }
      await expectNoAxeViolations(page, `admin nav ${theme} ${viewport.width}`, 'header');
      await page.screenshot({ path: `${SHOTS}/nav-${theme}-${viewport.width}.png` });
    }
  }
});
