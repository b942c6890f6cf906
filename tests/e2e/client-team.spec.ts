import { mkdirSync } from 'node:fs';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, checkEveryLook, createUserViaApi, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { latestMail, linkIn } from './outbox.ts';

// Decision 279: a client admin invites a colleague limited to one project; the colleague chooses a
// password from the invitation mail, signs in and sees only that project.

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = 'test-results/client-team';
mkdirSync(SHOTS, { recursive: true });
const PASSWORD = 'quay cranes at dawn';

test('a client admin invites a colleague limited to one project, who signs in and sees only it', async ({ page, browser, request }) => {
  const stamp = Date.now().toString(36);
  const staff = await createUserViaApi(request, { role: 'admin' });
  expect((await request.post('/api/auth/adminlogin', { data: { email: staff.email, password: staff.password }, headers: ORIGIN })).ok()).toBe(true);
  const client = await signInAs(page, { role: 'client', name: `Harbour Logistics ${stamp}` });
  const project = async (name: string) => {
    const res = await request.post('/api/projects', { data: { name, code: `${name.slice(0, 3).toUpperCase()}-${stamp}`, clientId: client._id, budget: '1000' }, headers: ORIGIN });
    expect(res.status()).toBe(201);
  };
  await project(`Quay Wall ${stamp}`);
  await project(`Depot Roof ${stamp}`);

  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.clientDashboard);
  const team = page.getByRole('region', { name: 'Team' });
  await expect(team.getByRole('list', { name: 'Team members' })).toContainText(client.name);

  // Invite by keyboard-reachable controls: name, e-mail, role and one project ticked.
  const email = `bola-${stamp}@example.test`;
  await team.getByRole('button', { name: 'Invite a colleague' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill('Bola Ade');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption('member');
  await dialog.getByRole('checkbox', { name: `Quay Wall ${stamp}` }).check();
  await expectNoAxeViolations(page, 'invite dialog');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
  const row = team.getByRole('listitem').filter({ hasText: 'Bola Ade' });
  await expect(row).toContainText(`Member · Quay Wall ${stamp} · Invitation sent`);

  await checkEveryLook(page, 'team', (file) => `${SHOTS}/${file}`, async () => {
    await expect(page.getByRole('region', { name: 'Team' }).getByRole('listitem').filter({ hasText: 'Bola Ade' })).toBeVisible();
  });

  // The colleague's own browser: the mailed link, a password, the sign-in, one project.
  const mail = await latestMail(email, 'invitation');
  const username = /Your username: (\S+)/.exec(mail)![1];
  const colleagueContext = await browser.newContext({ baseURL: E2E_BASE_URL });
  try {
    const colleague = await colleagueContext.newPage();
    const link = linkIn(mail);
    await colleague.goto(link.pathname + link.hash);
    await colleague.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await colleague.getByLabel('Confirm new password', { exact: true }).fill(PASSWORD);
    await colleague.getByRole('button', { name: 'Set Password' }).click();
    await expect(colleague).toHaveURL(PATHS.clientLogin);
    await colleague.getByLabel('Username').fill(username);
    await colleague.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await colleague.getByRole('button', { name: 'Sign In' }).click();
    await expect(colleague).toHaveURL(new RegExp(`${PATHS.clientDashboard}`));
    const projects = colleague.getByRole('region', { name: 'My Projects' });
    await expect(projects).toContainText(`Quay Wall ${stamp}`);
    await expect(projects).not.toContainText(`Depot Roof ${stamp}`);
    // A member manages nobody: no Team section.
    await expect(colleague.getByRole('region', { name: 'Team' })).toHaveCount(0);
    await expectNoAxeViolations(colleague, 'colleague dashboard');
  } finally {
    await colleagueContext.close();
  }

  // Back at the admin: the colleague is active; removing asks first, naming them.
  await page.reload();
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: 'Remove Bola Ade' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Bola Ade?' });
  await expect(confirm).toContainText('Bola Ade will be signed out at once');
  await confirm.getByRole('button', { name: 'Remove Bola Ade' }).click();
  await expect(row).toHaveCount(0);

  // Who did what: the staff audit log holds the client admin's invitation and removal.
  const audit = await (await request.get(`/api/audit/events?actorId=${client._id}`)).json();
  expect(audit.events.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['member.invite', 'member.remove']));
});
