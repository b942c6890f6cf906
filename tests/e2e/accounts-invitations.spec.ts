import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test, useTheme as withTheme } from './fixtures.ts';

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = 'test-results/accounts-screens';
mkdirSync(SHOTS, { recursive: true });

let counter = 0;
/** A client created by staff through the API (as the add-client form does); answers it with its first link. */
async function createClient(request: APIRequestContext, label: string) {
  const stamp = `${Date.now().toString(36)}${++counter}`;
  const res = await request.post('/api/users/clients', { data: { name: `${label} ${stamp}`, email: `${label.toLowerCase().replace(/\W+/g, '-')}-${stamp}@example.test` }, headers: ORIGIN });
  expect(res.status()).toBe(201);
  const body = await res.json();
  return { ...body.client, invitationUrl: body.invitationUrl as string } as { _id: string; name: string; email: string; invitationUrl: string };
}

const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');
const inspect = (request: APIRequestContext, url: string) => request.post('/api/auth/invitation/inspect', { data: { token: tokenOf(url) }, headers: ORIGIN });
const rowOf = (page: Page, name: string) => page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: name });

test('staff resend an invitation, copy the new link, revoke it, send another, and see the client become active', async ({ page, browser }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  const client = await createClient(page.request, 'Delta Marine');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_BASE_URL });
  await page.goto(PATHS.adminDashboard);
  const row = rowOf(page, client.name);
  await expect(row).toContainText(/Invitation pending, expires \d{1,2} \w{3} \d{4}/);

  // Resend: a new link, e-mailed and shown once with Copy; the first link stops working.
  await row.getByRole('button', { name: `Resend invitation to ${client.name}` }).click();
  const sent = page.getByRole('status').filter({ hasText: 'Invitation sent' });
  await expect(sent).toContainText(`A new link was e-mailed to ${client.email}.`);
  await expect(sent).toContainText('any earlier link no longer works');
  const linkField = row.getByLabel(`New invitation link for ${client.name}`);
  const newUrl = await linkField.inputValue();
  expect(newUrl).toMatch(/\/account\/set-password#token=[A-Za-z0-9_-]+$/);
  expect(newUrl).not.toBe(client.invitationUrl);
  expect((await inspect(page.request, client.invitationUrl)).status()).toBe(404);
  expect((await inspect(page.request, newUrl)).status()).toBe(200);

  await row.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invitation link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newUrl);

  // Revoke: the link shown stops working and disappears; the client has no valid invitation.
  await row.getByRole('button', { name: `Revoke invitation of ${client.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invitation revoked' })).toContainText(`The link sent to ${client.name} no longer works.`);
  await expect(row).toContainText('No valid invitation');
  await expect(linkField).toBeHidden();
  await expect(row.getByRole('button', { name: /Revoke invitation/ })).toBeHidden();
  expect((await inspect(page.request, newUrl)).status()).toBe(404);

  // Send a new one; the client uses it in its own browser and the row turns active.
  await row.getByRole('button', { name: `Send new invitation to ${client.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Invitation sent' }).first()).toBeVisible();
  await expect(row).toContainText('Invitation pending');
  const finalUrl = await row.getByLabel(`New invitation link for ${client.name}`).inputValue();
  const clientContext = await browser.newContext({ baseURL: E2E_BASE_URL });
  try {
    const clientPage = await clientContext.newPage();
    const link = new URL(finalUrl);
    await clientPage.goto(link.pathname + link.hash);
    await clientPage.getByLabel('New password', { exact: true }).fill('tides over the creek');
    await clientPage.getByLabel('Confirm new password', { exact: true }).fill('tides over the creek');
    await clientPage.getByRole('button', { name: 'Set Password' }).click();
    await expect(clientPage).toHaveURL(PATHS.clientLogin);
  } finally {
    await clientContext.close();
  }
  await page.reload();
  await expect(row).toContainText('Active: password set');
  await expect(row.getByRole('button', { name: /invitation/i })).toHaveCount(0);
});

test('selects the link for copying by hand when the clipboard is refused', async ({ page }) => {
  // A browser that refuses clipboard writes (no permission, an old engine).
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) } });
  });
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  const client = await createClient(page.request, 'Creek Logistics');
  await page.goto(PATHS.adminDashboard);
  const row = rowOf(page, client.name);
  await row.getByRole('button', { name: `Resend invitation to ${client.name}` }).click();
  const field = row.getByLabel(`New invitation link for ${client.name}`);
  await expect(field).toBeVisible();
  await row.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copy the selected link' })).toContainText('Press Ctrl+C');
  await expect(field).toBeFocused();
  const selection = await field.evaluate((el: HTMLInputElement) => [el.selectionStart, el.selectionEnd, el.value.length]);
  expect(selection[0]).toBe(0);
  expect(selection[1]).toBe(selection[2]);
});

test('reports a failed resend with the server message', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  const client = await createClient(page.request, 'Harbour Works');
  await page.goto(PATHS.adminDashboard);
  const row = rowOf(page, client.name);
  await expect(row).toContainText('Invitation pending');
  // The client sets its password in the meantime: the screen still offers a resend, the server refuses it.
  expect((await page.request.post('/api/auth/invitation/accept', { data: { token: tokenOf(client.invitationUrl), password: 'gulls above the wharf' }, headers: ORIGIN })).ok()).toBe(true);
  await row.getByRole('button', { name: `Resend invitation to ${client.name}` }).click();
  const failure = page.getByRole('alert').filter({ hasText: 'Failed to resend invitation' });
  await expect(failure).toContainText('This client has already set a password');
  await expect(row).toContainText('Active: password set');
});

test('shows every account state axe-clean at phone and desktop sizes, light and dark', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAs(page, { role: 'admin' });
  const pending = await createClient(page.request, 'Pending Client');
  const revoked = await createClient(page.request, 'Revoked Client');
  const active = await createClient(page.request, 'Active Client');
  expect((await page.request.delete(`/api/auth/invitations/${revoked._id}`, { headers: ORIGIN })).ok()).toBe(true);
  expect((await page.request.post('/api/auth/invitation/accept', { data: { token: tokenOf(active.invitationUrl), password: 'lanterns on the quay' }, headers: ORIGIN })).ok()).toBe(true);
  for (const theme of ['light', 'dark'] as const) {
    await withTheme(page, theme);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(PATHS.adminDashboard);
      await expect(rowOf(page, active.name)).toContainText('Active: password set');
      await expect(rowOf(page, revoked.name)).toContainText('No valid invitation');
      const row = rowOf(page, pending.name);
      await row.getByRole('button', { name: `Resend invitation to ${pending.name}` }).click();
      await expect(row.getByLabel(`New invitation link for ${pending.name}`)).toBeVisible();
      await expectNoAxeViolations(page, `client management ${theme} ${viewport.width}`);
      const list = page.getByRole('list', { name: 'Clients' });
      await list.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/client-invitations-${theme}-${viewport.width}.png`, fullPage: true });
      // Nothing pushes the page sideways on a phone.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  }
});
