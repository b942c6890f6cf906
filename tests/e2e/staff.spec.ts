import { mkdirSync } from 'node:fs';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, expect, expectNoAxeViolations, screenshotEveryLook, signInAs, test } from './fixtures.ts';

// Decision 275: an owner invites a support staff member, makes them an editor, then deactivates a
// staff member whose admin page is open in another browser: that page's next request is refused and
// it ends on the sign-in page. The audit log shows the three changes.

const SHOTS = 'test-results/staff';
mkdirSync(SHOTS, { recursive: true });

test('an owner invites, changes a role and deactivates; the deactivated page is signed out', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const stamp = Date.now().toString(36);
  await signInAs(page, { role: 'admin', name: `Owner ${stamp}` });

  // The person to deactivate, signed in with the admin area open in a browser of their own.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const leaving = await signInAs(otherPage, { role: 'admin', name: `Leaving Staff ${stamp}` });
  await otherPage.goto(PATHS.adminDashboard);
  await expect(otherPage.getByRole('navigation', { name: 'Admin' })).toBeVisible();

  await page.goto(PATHS.adminDashboard);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Staff/ }).click();
  await expect(page).toHaveURL(PATHS.adminStaff);
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();

  // Invite: a support member (a blank name is refused first, marked on the field).
  const invitee = `Sade Support ${stamp}`;
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite staff' });
  await expect(dialog.getByLabel('Name')).toBeVisible();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Name').fill(invitee);
  await dialog.getByLabel('Email').fill(`sade.${stamp}@example.test`);
  await dialog.getByLabel('Role').selectOption({ label: 'Support' });
  await dialog.getByRole('button', { name: 'Send invitation' }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Staff member invited' }).first()).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('table', { name: 'Staff accounts' }).getByRole('row').filter({ hasText: invitee });
  await expect(row).toContainText('Invited');
  await expect(row.getByRole('combobox', { name: `Role of ${invitee}` })).toHaveValue('support');

  // Change the role.
  await row.getByRole('combobox', { name: `Role of ${invitee}` }).selectOption({ label: 'Editor' });
  await expect(page.getByRole('status').filter({ hasText: `${invitee} is now Editor` }).first()).toBeVisible();
  await expect(row.getByRole('combobox', { name: `Role of ${invitee}` })).toHaveValue('editor');

  // Deactivate the person whose page is open elsewhere; the confirmation names them.
  const leavingRow = page.getByRole('table', { name: 'Staff accounts' }).getByRole('row').filter({ hasText: leaving.name });
  await leavingRow.getByRole('button', { name: `Deactivate ${leaving.name}` }).click();
  const confirm = page.getByRole('dialog', { name: `Deactivate ${leaving.name}?` });
  await expect(confirm).toContainText('signed out everywhere at once');
  await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(leavingRow).toContainText('Deactivated');
  await expect(leavingRow.getByRole('button', { name: `Reactivate ${leaving.name}` })).toBeVisible();

  // Their open page: its next request is refused, and it lands on the sign-in page.
  expect((await otherPage.request.get('/api/messages/unread')).status()).toBe(401);
  await otherPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Audit log/ }).click();
  await otherPage.reload();
  await expect(otherPage).toHaveURL(PATHS.adminLogin);
  await other.close();

  await expectNoAxeViolations(page, 'staff screen');
  await screenshotEveryLook(page, 'staff', (file) => `${SHOTS}/${file}`, async () => {
    await expect(page.getByText(invitee).filter({ visible: true }).first()).toBeVisible();
    await expectNoAxeViolations(page, 'staff screen look');
  });

  // The audit log has each change.
  await page.goto(PATHS.adminAuditLog);
  const log = page.getByRole('region', { name: 'Changes' }).getByRole('table');
  await expect(log.getByRole('row').filter({ hasText: 'staff.deactivate' }).first()).toContainText('status: active → changed to deactivated');
  await expect(log.getByRole('row').filter({ hasText: 'staff.role' }).first()).toContainText('role: support → changed to editor');
  await expect(log.getByRole('row').filter({ hasText: 'staff.invite' }).first()).toContainText(invitee);
  await expectNoAxeViolations(page, 'audit log with staff events');
});
