import { mkdirSync } from 'node:fs';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, screenshotEveryLook, signInAs, test } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// Decision 277: the owner makes a project manager the manager of one of two projects; the project
// manager then sees that project and its client only, and a link to the other project reads as
// not found.

const SHOTS = 'test-results/project-manager';
mkdirSync(SHOTS, { recursive: true });

test('an owner assigns a project manager to one project, who then sees only that one', async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Site Owner' });
  const stamp = Date.now().toString(36);
  const manager = await createUserViaApi(page.request, { role: 'admin', staffRole: 'project_manager', name: `Pat Manager ${stamp}` });
  const clientA = await createUserViaApi(page.request, { role: 'client', name: `Harbour Works ${stamp}` });
  const clientB = await createUserViaApi(page.request, { role: 'client', name: `Inland Quarry ${stamp}` });
  const project = async (clientId: string, name: string, code: string) =>
    (await api<{ project: { _id: string } }>(page, 'POST', '/projects', { name, code: `${code}-${stamp}`.toUpperCase(), clientId })).body.project._id;
  const mine = await project(clientA._id, `Quay wall ${stamp}`, 'PMA');
  const theirs = await project(clientB._id, `Quarry road ${stamp}`, 'PMB');

  // The owner chooses the manager on the project's card, by keyboard.
  await page.goto(`${PATHS.adminDashboard}?client=${clientA._id}&project=${mine}`);
  const card = page.getByRole('region', { name: 'Project details' });
  await expect(card.getByText('None assigned')).toBeVisible();
  await card.getByRole('button', { name: 'Choose project managers' }).click();
  const dialog = page.getByRole('dialog', { name: `Project managers of Quay wall ${stamp}` });
  const box = dialog.getByRole('checkbox', { name: new RegExp(`Pat Manager ${stamp}`) });
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  await expectNoAxeViolations(page, 'project managers dialog');
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}/owner-dialog-light-390.png` });
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Save project managers' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByText(`Pat Manager ${stamp}`)).toBeVisible();
  await screenshotEveryLook(page, 'owner-card', (file) => `${SHOTS}/${file}`, async () => {
    await card.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page, 'owner card', '[aria-label="Project details"]');
  });

  // The project manager signs in and finds one client with one project.
  await page.context().clearCookies();
  await signInAs(page, { role: 'admin', account: manager });
  await page.goto(PATHS.adminDashboard);
  const clients = page.getByRole('list', { name: 'Clients' });
  await expect(clients.getByRole('listitem')).toHaveCount(1);
  await expect(clients).toContainText(`Harbour Works ${stamp}`);
  await clients.getByRole('button', { name: new RegExp(`^Harbour Works ${stamp}`) }).click();
  const projects = page.getByRole('list', { name: `Projects of Harbour Works ${stamp}` });
  await expect(projects.getByRole('listitem')).toHaveCount(1);
  await projects.getByRole('button', { name: new RegExp(`Quay wall ${stamp}`) }).first().click();
  await expect(card.getByRole('heading', { name: `Quay wall ${stamp}` })).toBeVisible();
  // Assigning, adding clients and projects, and archiving or deleting a client are for owners and
  // admins (decision 277): none of those controls on the manager's screen.
  await expect(card.getByRole('button', { name: 'Choose project managers' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Add client' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create New Project' })).toHaveCount(0);
  await expect(clients.getByRole('button', { name: /^(Archive|Delete)/ })).toHaveCount(0);
  await screenshotEveryLook(page, 'pm-dashboard', (file) => `${SHOTS}/${file}`, async ({ theme, viewport }) => {
    await expect(card.getByRole('heading', { name: `Quay wall ${stamp}` })).toBeVisible();
    await expectNoAxeViolations(page, `project manager dashboard ${theme} ${viewport.width}`);
  });

  // The other project's address reads as a missing project.
  await page.goto(`${PATHS.adminDashboard}?client=${clientB._id}&project=${theirs}`);
  await expect(page.getByText('Project not found')).toBeVisible();
  await expect(page.getByText(`Quarry road ${stamp}`)).toHaveCount(0);
  await expectNoAxeViolations(page, 'project manager, other project');
  await page.screenshot({ path: `${SHOTS}/pm-other-project-light-1280.png`, fullPage: true });

  // Who did what: the owner's audit log names the assignment.
  await page.context().clearCookies();
  await signInAs(page, { role: 'admin', name: 'Site Owner' });
  await page.setViewportSize(DESKTOP);
  await page.goto(`${PATHS.adminAuditLog}?projectId=${mine}`);
  await expect(page.getByRole('table').getByRole('row').filter({ hasText: 'project.managers' })).toHaveCount(1);
});
