import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test, useTheme as withTheme, type E2EAccount } from './fixtures.ts';
import { api, deleteWithTypedName } from './portal-helpers.ts';

// Issue 22, Tidy, for projects: staff archive a project (the client's default list loses it, its
// 'Archived' filter shows it read-only), restore it (back in the list), delete an empty one at once
// and one with history after typing its name (the count is shown). Staff and client side by side.

const SHOTS = 'test-results/projects-archive';
mkdirSync(SHOTS, { recursive: true });

let seq = 0;
const unique = (label: string) => `${label} ${Date.now().toString(36)}${++seq}`;

async function projectFor(staff: Page, client: E2EAccount, name: string, message?: string): Promise<{ _id: string; name: string }> {
  const res = await api<{ project: { _id: string } }>(staff, 'POST', '/projects', { name, code: `PAR-${Date.now().toString(36)}-${++seq}`, clientId: client._id });
  expect(res.status).toBe(201);
  if (message) expect((await api(staff, 'POST', '/messages', { projectId: res.body.project._id, text: message })).status).toBe(201);
  return { _id: res.body.project._id, name };
}

/** A client signed in in its own browser context, on its dashboard. */
async function clientBeside(browser: Browser, client: E2EAccount, theme?: 'light' | 'dark', size = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: size });
  const page = await context.newPage();
  if (theme) await withTheme(page, theme);
  await signInAs(page, { role: 'client', account: client });
  await page.goto(PATHS.clientDashboard);
  await expect(page.getByRole('heading', { name: 'Client Dashboard' })).toBeVisible();
  return page;
}

const row = (page: Page, list: string, name: string) => page.getByRole('list', { name: list }).getByRole('listitem').filter({ hasText: name });
const details = (page: Page) => page.getByRole('region', { name: 'Project details' });

const openInAdmin = (page: Page, client: E2EAccount, projectId: string) => page.goto(`${PATHS.adminDashboard}?client=${client._id}&project=${projectId}`);

/** What an archived project's screen must not offer, for staff and client alike. */
async function expectReadOnly(page: Page, name: string) {
  await expect(details(page)).toContainText('read-only');
  await expect(page.getByRole('form', { name: 'Write a message' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Edit project' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create Project Report' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Choose status of ${name}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Save/ })).toHaveCount(0);
}

test('archive a project: the client loses it from its list and finds it read-only under Archived; restore brings it back; delete empty and with history', async ({ page, browser }) => {
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin' });
  const client = await createUserViaApi(page.request, { role: 'client', name: unique('Lekki Haulage') });
  const depot = await projectFor(page, client, unique('Ojota depot'), 'Crane booked for Monday');
  const yard = await projectFor(page, client, unique('Agege yard'));

  const clientPage = await clientBeside(browser, client);
  try {
    // The client has the project open while staff archive it.
    await row(clientPage, 'My projects', depot.name).getByRole('button').click();
    await expect(clientPage.getByRole('form', { name: 'Write a message' })).toBeVisible();

    // Staff archive it from the project's detail: the list follows it under 'Archived', read-only.
    await openInAdmin(page, client, depot._id);
    await expect(page.getByRole('form', { name: 'Write a message' })).toBeVisible();
    await details(page).getByRole('button', { name: `Archive ${depot.name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${depot.name} archived` })).toBeVisible();
    await expect(page.getByLabel('Show projects')).toHaveValue('archived');
    // The filter is kept in the address: a reload keeps the archived list and the open project.
    await page.reload();
    await expect(page.getByLabel('Show projects')).toHaveValue('archived');
    await expect(row(page, `Projects of ${client.name}`, depot.name)).toContainText('Archived');
    await expectReadOnly(page, depot.name);
    await expect(details(page).getByRole('button', { name: `Restore ${depot.name}` })).toBeVisible();

    // The client's open dashboard loses it from its list live; the open project turns read-only in
    // place; 'Archived' lists it, with its message.
    await expect(row(clientPage, 'My projects', depot.name)).toHaveCount(0);
    await expect(row(clientPage, 'My projects', yard.name)).toBeVisible();
    await expect(details(clientPage)).toContainText('Archived on');
    await expectReadOnly(clientPage, depot.name);
    await clientPage.getByLabel('Show projects').selectOption('archived');
    await clientPage.reload();
    await expect(clientPage.getByLabel('Show projects')).toHaveValue('archived');
    await expect(row(clientPage, 'My projects', depot.name)).toContainText('Archived');
    await expect(row(clientPage, 'My projects', yard.name)).toHaveCount(0);
    await expect(clientPage.getByRole('region', { name: 'Message thread' })).toContainText('Crane booked for Monday');

    // Restore: back in both default lists, writable again.
    await details(page).getByRole('button', { name: `Restore ${depot.name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `${depot.name} restored` })).toBeVisible();
    await expect(page.getByLabel('Show projects')).toHaveValue('');
    await expect(page.getByRole('form', { name: 'Write a message' })).toBeVisible();
    await expect(row(clientPage, 'My projects', depot.name)).toHaveCount(0);
    await clientPage.getByLabel('Show projects').selectOption('');
    await expect(row(clientPage, 'My projects', depot.name)).toBeVisible();

    // Delete an empty project: one confirmation naming it.
    await openInAdmin(page, client, yard._id);
    await details(page).getByRole('button', { name: `Delete ${yard.name}` }).click();
    const emptyDialog = page.getByRole('dialog', { name: `Delete ${yard.name}?` });
    await emptyDialog.getByRole('button', { name: `Delete ${yard.name}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Deleted ${yard.name}: 1 project, 0 reports, 0 messages and 0 stored files removed.` })).toBeVisible();
    await expect(emptyDialog).toBeHidden();
    await expect(row(page, `Projects of ${client.name}`, yard.name)).toHaveCount(0);
    await expect(row(clientPage, 'My projects', yard.name)).toHaveCount(0);

    // Delete one with history: refused until its name is typed, then everything goes.
    await openInAdmin(page, client, depot._id);
    await details(page).getByRole('button', { name: `Delete ${depot.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${depot.name}?` });
    await deleteWithTypedName(page, dialog, depot.name, 'archive the project, or type its name', `Deleted ${depot.name}: 1 project, 0 reports, 1 message and 0 stored files removed.`);
    await expect(row(page, `Projects of ${client.name}`, depot.name)).toHaveCount(0);
    await expect(page.getByText('Select a Project')).toBeVisible();
    await expect(row(clientPage, 'My projects', depot.name)).toHaveCount(0);
  } finally {
    await clientPage.context().close();
  }
});

for (const theme of ['light', 'dark'] as const) {
  for (const [label, size] of [['390', PHONE], ['1280', DESKTOP]] as const) {
    test(`archived project, its buttons, Archived filter and delete confirmation at ${label} px, ${theme}`, async ({ page, browser }) => {
      await withTheme(page, theme);
      await page.setViewportSize(size);
      await signInAs(page, { role: 'admin' });
      const client = await createUserViaApi(page.request, { role: 'client', name: unique('Apapa Marine') });
      const project = await projectFor(page, client, unique('Tin Can quay'), 'Survey done');
      expect((await api(page, 'POST', `/projects/${project._id}/archive`)).status).toBe(200);

      const clientPage = await clientBeside(browser, client, theme, size);
      try {
        await clientPage.getByLabel('Show projects').selectOption('archived');
        await row(clientPage, 'My projects', project.name).getByRole('button').click();
        await expect(details(clientPage)).toContainText('Archived on');
        await expectNoAxeViolations(clientPage, `client archived view ${label} ${theme}`);
        await clientPage.screenshot({ path: `${SHOTS}/client-archived-${label}-${theme}.png`, fullPage: true });
      } finally {
        await clientPage.context().close();
      }

      await openInAdmin(page, client, project._id);
      await page.getByLabel('Show projects').selectOption('archived');
      await expect(details(page).getByRole('button', { name: `Restore ${project.name}` })).toBeVisible();
      await expectNoAxeViolations(page, `staff archived view ${label} ${theme}`);
      await details(page).screenshot({ path: `${SHOTS}/staff-buttons-${label}-${theme}.png` });
      await page.getByRole('region', { name: `Projects of ${client.name}` }).screenshot({ path: `${SHOTS}/staff-filter-${label}-${theme}.png` });

      await details(page).getByRole('button', { name: `Delete ${project.name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Delete ${project.name}?` });
      await dialog.getByRole('button', { name: `Delete ${project.name}` }).click();
      await expect(dialog.getByLabel(/^Type .* to delete it/)).toBeVisible();
      await expectNoAxeViolations(page, `project delete dialog ${label} ${theme}`, 'dialog');
      await page.screenshot({ path: `${SHOTS}/delete-confirm-${label}-${theme}.png` });
    });
  }
}
