import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, LOOKS, createUserViaApi, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// Issue 23, who did what: staff change a project's status and a client's name on the dashboard,
// open the Audit log, filter it by the project, see each change as before -> after, and download
// the filtered log as CSV.

const SHOTS = 'test-results/audit-log';
mkdirSync(SHOTS, { recursive: true });

const log = (page: Page) => page.getByRole('region', { name: 'Changes' });

test('staff change a status and a name, then find both in the audit log and its CSV', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Audit Staff' });
  const stamp = Date.now().toString(36);
  const oldName = `Badagry Haulage ${stamp}`;
  const newName = `Badagry Haulage Group ${stamp}`;
  const client = await createUserViaApi(page.request, { role: 'client', name: oldName });
  const projectName = `Badagry yard ${stamp}`;
  const created = await api<{ project: { _id: string } }>(page, 'POST', '/projects', { name: projectName, code: `AUD-${stamp}`.toUpperCase(), clientId: client._id });
  expect(created.status).toBe(201);

  await page.goto(PATHS.adminDashboard);
  const clientRow = page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: oldName });
  await clientRow.getByRole('button', { name: new RegExp(`^${oldName}`) }).click();
  const projectRow = page.getByRole('list', { name: `Projects of ${oldName}` }).getByRole('listitem').filter({ hasText: projectName });
  await projectRow.getByRole('button', { name: /change status of/ }).click();
  await expect(projectRow.getByRole('button', { name: `In progress: change status of ${projectName}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Project status updated' }).first()).toBeVisible();

  await clientRow.getByRole('button', { name: `Edit ${oldName}` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit client ${oldName}` });
  await dialog.getByLabel('Client name').fill(newName);
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Client updated successfully' }).first()).toBeVisible();

  // The one admin navigation leads there.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Audit log/ }).click();
  await expect(page).toHaveURL(PATHS.adminAuditLog);
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = log(page).getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: `name: ${oldName} → changed to ${newName}` })).toContainText('client.update');

  await log(page).getByLabel('Project').selectOption({ label: projectName });
  await expect(page).toHaveURL(new RegExp(`projectId=${created.body.project._id}`));
  const rows = table.getByRole('row').filter({ hasText: 'project.' });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('status: not-started → changed to in-progress');
  await expect(rows.first()).toContainText('admin: Audit Staff');
  await expect(rows.nth(1)).toContainText('project.create');
  await expect(table).not.toContainText('client.update');

  const [download] = await Promise.all([page.waitForEvent('download'), log(page).getByRole('link', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').trimEnd().split('\r\n');
  expect(csv[0]).toBe('Time (Lagos),Who,Address,Action,Kind,Id,Project id,Project,What changed');
  expect(csv).toHaveLength(3);
  expect(csv[1]).toContain('project.status');
  expect(csv[1]).toContain('"status: ""not-started"" → ""in-progress"""');

  for (const { theme, viewport } of LOOKS) {
    await page.evaluate((t) => localStorage.setItem('theme', t), theme);
    await page.setViewportSize(viewport);
    await page.reload();
    await expect(log(page).getByText('status: not-started').filter({ visible: true }).first()).toBeVisible();
    await expectNoAxeViolations(page, `audit log ${theme} ${viewport.width}`);
    await page.screenshot({ path: `${SHOTS}/audit-log-${theme}-${viewport.width}.png`, fullPage: true });
  }
});
