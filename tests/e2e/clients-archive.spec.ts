import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { ACCOUNT_ARCHIVED } from '../../common/schemas/auth.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test, useTheme, type E2EAccount } from './fixtures.ts';
import { api, deleteWithTypedName } from './portal-helpers.ts';

// Issue 22, Tidy: staff archive a client (its open session ends, its sign-in is refused), restore it
// (sign-in works again), and delete one with history by typing its name (the count is shown).

const SHOTS = 'test-results/clients-archive';
mkdirSync(SHOTS, { recursive: true });

let seq = 0;
/** A client with a password, a project and one message of its own (history). */
async function clientWithHistory(staff: Page, label: string): Promise<E2EAccount & { projectId: string }> {
  const name = `${label} ${Date.now().toString(36)}${++seq}`;
  const client = await createUserViaApi(staff.request, { role: 'client', name });
  const project = await api<{ project: { _id: string } }>(staff, 'POST', '/projects', { name: `${name} depot`, code: `ARC-${Date.now().toString(36)}-${seq}`, clientId: client._id });
  expect(project.status).toBe(201);
  const sent = await api(staff, 'POST', '/messages', { projectId: project.body.project._id, text: 'Crane booked for Monday' });
  expect(sent.status).toBe(201);
  return { ...client, projectId: project.body.project._id };
}

const clientRow = (page: Page, name: string) => page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: name });

/** The open project of the archived client `name` offers no change: no new project, edit, status, report, timeline or message. */
async function expectArchivedClientReadOnly(page: Page, name: string) {
  await expect(page.getByRole('region', { name: 'Project details' })).toContainText(`${name} depot`);
  await expect(page.getByRole('heading', { name: `Projects of ${name}` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create New Project' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit project' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create Project Report' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Choose status of/ })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Write a message' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(0);
}

async function signInThroughForm(page: Page, client: E2EAccount) {
  await page.goto(PATHS.clientLogin);
  await page.getByLabel('Username').fill(client.username!);
  await page.getByLabel('Password', { exact: true }).fill(client.password!);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('the list filters are read from the address; a value the page does not know opens the default list', async ({ page }) => {
  await signInAs(page, { role: 'admin' });
  await page.goto(`${PATHS.adminDashboard}?clients=name&clientsOrder=archived`);
  await expect(page.getByLabel('Show', { exact: true })).toHaveValue('');
  await expect(page.getByLabel('Order', { exact: true })).toHaveValue('');
  await page.goto(`${PATHS.adminDashboard}?clients=completed&clientsOrder=name`);
  await expect(page.getByLabel('Show', { exact: true })).toHaveValue('completed');
  await expect(page.getByLabel('Order', { exact: true })).toHaveValue('name');
  await page.getByLabel('Show', { exact: true }).selectOption('archived');
  await expect(page).toHaveURL(/clients=archived/);
  await page.goBack();
  await expect(page.getByLabel('Show', { exact: true })).toHaveValue('completed');
});

test('archive a client: its session ends and sign-in is refused; restore: sign-in works; delete with its typed name shows the count', async ({ page, browser }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  const client = await clientWithHistory(page, 'Ikeja Freight');

  const clientContext = await browser.newContext({ baseURL: E2E_BASE_URL });
  try {
    const clientPage = await clientContext.newPage();
    await signInAs(clientPage, { role: 'client', account: client });
    await clientPage.goto(PATHS.clientDashboard);
    await expect(clientPage.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();

    await page.goto(PATHS.adminDashboard);
    await clientRow(page, client.name).getByRole('button', { name: `Archive ${client.name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${client.name} archived` })).toBeVisible();
    // Out of the default list, under Archived.
    await expect(clientRow(page, client.name)).toHaveCount(0);
    await page.getByLabel('Show', { exact: true }).selectOption('archived');
    await expect(clientRow(page, client.name)).toContainText('Archived');
    // 'Show' is kept in the address: a reload keeps the archived list.
    await expect(page).toHaveURL(/[?&]clients=archived/);
    await page.reload();
    await expect(page.getByLabel('Show', { exact: true })).toHaveValue('archived');
    // An archived client is read-only with its projects: nothing on screen offers a change the server
    // refuses, whether its project is opened by a link or chosen from the Archived list.
    await page.goto(`${PATHS.adminDashboard}?client=${client._id}&project=${client.projectId}`);
    await expectArchivedClientReadOnly(page, client.name);
    await page.goto(`${PATHS.adminDashboard}?clients=archived`);
    await expect(clientRow(page, client.name).getByRole('button', { name: `change status of ${client.name}` })).toHaveCount(0);
    await expect(clientRow(page, client.name).getByRole('button', { name: `Edit ${client.name}` })).toHaveCount(0);
    await clientRow(page, client.name).getByRole('button').first().click();
    await page.getByRole('list', { name: `Projects of ${client.name}` }).getByRole('listitem').getByRole('button').first().click();
    await expectArchivedClientReadOnly(page, client.name);

    // The client's open session ended at once; signing in again is refused with the clear text.
    expect((await clientPage.request.get('/api/auth/me')).status()).toBe(401);
    await clientPage.reload();
    await expect(clientPage).toHaveURL(PATHS.clientLogin);
    await signInThroughForm(clientPage, client);
    await expect(clientPage.locator('form').getByRole('alert')).toHaveText(ACCOUNT_ARCHIVED);

    await clientRow(page, client.name).getByRole('button', { name: `Restore ${client.name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${client.name} restored` })).toBeVisible();
    await signInThroughForm(clientPage, client);
    // The dashboard may add the project it opens to the address (?project=...).
    await expect(clientPage.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
    expect(new URL(clientPage.url()).pathname).toBe(PATHS.clientDashboard);
  } finally {
    await clientContext.close();
  }

  // Delete: the dialog names the client; with history the server asks for the typed name.
  await page.getByLabel('Show', { exact: true }).selectOption('');
  await clientRow(page, client.name).getByRole('button', { name: `Delete ${client.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${client.name}?` });
  await expect(dialog).toBeVisible();
  await deleteWithTypedName(page, dialog, client.name, 'type its name to delete it with everything', `Deleted ${client.name}: 1 project, 0 reports, 1 message and 0 stored files removed.`);
  await expect(clientRow(page, client.name)).toHaveCount(0);
});

for (const theme of ['light', 'dark'] as const) {
  for (const [label, size] of [['390', PHONE], ['1280', DESKTOP]] as const) {
    test(`the delete confirmations at ${label} px, ${theme}`, async ({ page }) => {
      await useTheme(page, theme);
      await page.setViewportSize(size);
      await signInAs(page, { role: 'admin' });
      const client = await clientWithHistory(page, 'Apapa Marine');
      await page.goto(PATHS.adminDashboard);
      await clientRow(page, client.name).getByRole('button', { name: `Delete ${client.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Delete ${client.name}?` });
      await expect(dialog).toBeVisible();
      await expectNoAxeViolations(page, `delete dialog ${label} ${theme}`, 'dialog');
      await page.screenshot({ path: `${SHOTS}/delete-confirm-${label}-${theme}.png` });
      await dialog.getByRole('button', { name: `Delete ${client.name}` }).click();
      await expect(dialog.getByLabel(/^Type .* to delete it/)).toBeVisible();
      await dialog.getByLabel(/^Type .* to delete it/).fill(client.name.slice(0, 8));
      await expectNoAxeViolations(page, `typed-name dialog ${label} ${theme}`, 'dialog');
      await page.screenshot({ path: `${SHOTS}/delete-typed-name-${label}-${theme}.png` });
    });
  }
}

// Issue 22, Find: the staff client list shows a page at a time; Next and Previous follow its cursors.
test('the client list pages by Next and Previous, ordered by name', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  // 51 clients whose names sort before every other: the 51st is alone on page 2 of the name order.
  const tag = `Aaa ${Date.now().toString(36)}`;
  const names = Array.from({ length: 51 }, (_, i) => `${tag} ${String(i + 1).padStart(2, '0')}`);
  for (let i = 0; i < names.length; i += 10) {
    await Promise.all(names.slice(i, i + 10).map((name) => createUserViaApi(page.request, { role: 'client', name, invited: true })));
  }
  await page.goto(PATHS.adminDashboard);
  await page.getByLabel('Order').selectOption('name');
  const nav = page.getByRole('navigation', { name: 'Client pages' });
  await expect(clientRow(page, names[0])).toBeVisible();
  await expect(clientRow(page, names[50])).toHaveCount(0);
  await expect(nav.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expectNoAxeViolations(page, 'client list pages, first', 'nav[aria-label="Client pages"]');

  await nav.getByRole('button', { name: 'Next' }).click();
  await expect(clientRow(page, names[50])).toBeVisible();
  await expect(clientRow(page, names[0])).toHaveCount(0);
  await expect(nav.getByText(/^Page 2 of \d+$/)).toBeVisible();
  await nav.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/client-pages-1280-light.png` });

  await nav.getByRole('button', { name: 'Previous' }).click();
  await expect(clientRow(page, names[0])).toBeVisible();
  await expect(clientRow(page, names[50])).toHaveCount(0);
  await expect(nav.getByText(/^Page 1 of \d+$/)).toBeVisible();
  await useTheme(page, 'dark');
  await page.setViewportSize(PHONE);
  await page.reload();
  await page.getByLabel('Order').selectOption('name');
  await nav.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page, 'client list pages, phone dark', 'nav[aria-label="Client pages"]');
  await page.screenshot({ path: `${SHOTS}/client-pages-390-dark.png` });
});
