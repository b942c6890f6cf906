import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL, E2E_MAIL_DIR } from '../../playwright.config.ts';
import { readMailDir, waitForMailInDir } from '../helpers/smtp-server.ts';
import {
  DESKTOP,
  PHONE,
  createUserViaApi,
  expect,
  expectNoAxeViolations,
  signInAs,
  test,
  type E2EAccount,
} from './fixtures.ts';
import { api, postReport } from './portal-helpers.ts';

// Screenshots for people to look at (not compared by the test).
const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/portal-live-shots';
mkdirSync(SHOTS, { recursive: true });

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
/** Live changes arrive within a few seconds, never after a reload. */
const LIVE = { timeout: 5_000 };

async function newClientPage(browser: Browser, account: E2EAccount, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await signInAs(page, { role: 'client', account });
  return page;
}

async function createProject(
  staff: Page,
  clientId: string,
  name: string,
): Promise<{ _id: string; code: string; name: string }> {
  const res = await api<{ project: { _id: string; code: string; name: string } }>(staff, 'POST', '/projects', {
    name,
    code: `LV-${stamp()}`.toUpperCase(),
    clientId,
    startDate: '2026-01-05',
    endDate: '2026-12-18',
  });
  expect(res.status).toBe(201);
  return res.body.project;
}

/** Marks the page, so the test can prove at the end that it was never reloaded. */
async function markNoReload(page: Page) {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
}

test('every change staff make reaches the open client dashboard live, and the staff dashboard too', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Live Staff ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Rivers Haulage ${id}` });
  const project = await createProject(page, account._id, `Bonny depot ${id}`);
  const client = await newClientPage(browser, account);

  await test.step('a client with one project finds it open on arrival', async () => {
    await client.goto(PATHS.clientDashboard);
    await expect(client).toHaveURL(new RegExp(`project=${project._id}`));
    await expect(
      client.getByRole('region', { name: 'Project details' }).getByRole('heading', { name: project.name }),
    ).toBeVisible();
    await expect(client.getByText('No timeline yet')).toBeVisible();
    await expect(client.getByText('No reports yet')).toBeVisible();
    await markNoReload(client);
  });

  await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${project._id}`);
  await markNoReload(page);
  const clientList = client.getByRole('list', { name: 'My projects' });

  await test.step('a status change made on the staff screen', async () => {
    await page.getByRole('button', { name: `Not started: change status of ${project.name}` }).click();
    await expect(clientList.getByRole('listitem').filter({ hasText: project.name })).toContainText('In progress', LIVE);
    await expect(client.getByRole('region', { name: 'Project details' })).toContainText('In progress', LIVE);
  });

  await test.step('a timeline created, then edited', async () => {
    const created = await api<{ timeline: { _id: string } }>(page, 'POST', '/gantt-charts', {
      projectId: project._id,
      projectTitle: project.name,
      tasks: [{ task: 'Tank foundations', month: '2026-02', status: 'in-progress' }],
    });
    expect(created.status).toBe(201);
    const chart = client.getByRole('table', { name: `${project.name}: tasks by month` });
    await expect(chart.getByRole('rowheader', { name: /Tank foundations/ })).toBeVisible(LIVE);
    const edited = await api(page, 'PUT', `/gantt-charts/${created.body.timeline._id}`, {
      projectTitle: project.name,
      tasks: [
        { task: 'Tank foundations', month: '2026-02', status: 'completed' },
        { task: 'Pipe racks', month: '2026-03' },
      ],
    });
    expect(edited.status).toBe(200);
    await expect(chart.getByRole('rowheader', { name: /Pipe racks/ })).toBeVisible(LIVE);
    await expect(chart.getByRole('rowheader', { name: /Tank foundations/ })).toContainText('Completed', LIVE);
    // The staff's editor, open on the same project, shows the edited plan too.
    await expect(
      page.getByRole('form', { name: `Timeline ${project.name}` }).getByLabel('Task 2', { exact: true }),
    ).toHaveValue('Pipe racks', LIVE);
  });

  await test.step('a progress report added', async () => {
    const res = await postReport(page, project, '2026-03-09', { tasks: 'Poured the ring beam', progress: 'Sixty percent' });
    expect(res.status()).toBe(201);
    await expect(client.getByRole('article', { name: 'Report of 9 Mar 2026' })).toBeVisible(LIVE);
    await expect(page.getByRole('article', { name: 'Report of 9 Mar 2026' })).toBeVisible(LIVE);
  });

  await test.step('a new project for the client', async () => {
    const second = await createProject(page, account._id, `Onne laydown yard ${id}`);
    await expect(clientList.getByRole('listitem')).toHaveCount(2, LIVE);
    await expect(clientList).toContainText(second.name);
    // The staff's list of the client's projects and the client's project count follow as well.
    await expect(page.getByRole('list', { name: `Projects of ${account.name}` }).getByRole('listitem')).toHaveCount(
      2,
      LIVE,
    );
    await expect(
      page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: account.name }),
    ).toContainText('2 projects', LIVE);
  });

  await test.step("a client's status changed by another staff member reaches this staff screen", async () => {
    const otherStaff = await browser.newContext({ baseURL: E2E_BASE_URL });
    const other = await otherStaff.newPage();
    await signInAs(other, { role: 'admin', name: `Second Staff ${id}` });
    const row = page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: account.name });
    await expect(row.getByRole('button', { name: /^New: change status of/ })).toBeVisible();
    expect((await api(other, 'PUT', `/users/clients/${account._id}/status`, { status: 'in-progress' })).status).toBe(
      200,
    );
    await expect(row.getByRole('button', { name: /^In progress: change status of/ })).toBeVisible(LIVE);
    await otherStaff.close();
  });

  await expectNotReloaded(client);
  await expectNotReloaded(page);
  await expectNoAxeViolations(client, 'client dashboard after live changes');
  await expectNoAxeViolations(page, 'staff dashboard after live changes');
  await client.context().close();
});

test("another staff member's save replaces an untouched timeline form but never a draft in progress", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Draft Staff ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Warri Marine ${id}` });
  const project = await createProject(page, account._id, `Koko jetty ${id}`);
  const created = await api<{ timeline: { _id: string } }>(page, 'POST', '/gantt-charts', {
    projectId: project._id,
    projectTitle: project.name,
    tasks: [{ task: 'Survey', month: '2026-02', status: 'completed' }],
  });
  expect(created.status).toBe(201);
  const timelinePath = `/gantt-charts/${created.body.timeline._id}`;
  // The second staff member saves through the API with their own session.
  const otherStaff = await browser.newContext({ baseURL: E2E_BASE_URL });
  const other = await otherStaff.newPage();
  await signInAs(other, { role: 'admin', name: `Other Staff ${id}` });
  const theirSave = async (tasks: string[]) =>
    expect(
      (
        await api(other, 'PUT', timelinePath, {
          projectTitle: project.name,
          tasks: tasks.map((task) => ({ task, month: '2026-03' })),
        })
      ).status,
    ).toBe(200);

  await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${project._id}`);
  const form = page.getByRole('form', { name: `Timeline ${project.name}` });
  const task = (n: number) => form.getByLabel(`Task ${n}`, { exact: true });
  const notice = form
    .getByRole('status')
    .filter({ hasText: 'Someone else saved this timeline while you were editing it.' });
  await expect(task(1)).toHaveValue('Survey', { timeout: 30_000 });

  await test.step('nothing typed: their version simply shows', async () => {
    await theirSave(['Survey', 'Piling']);
    await expect(task(2)).toHaveValue('Piling', LIVE);
    await expect(notice).toHaveCount(0);
  });

  await test.step('a draft in progress stays, with a notice; Save Timeline keeps it', async () => {
    await task(1).fill('Survey and setting out');
    await theirSave(['Survey', 'Piling', 'Fencing']);
    await expect(notice).toBeVisible(LIVE);
    await expect(task(1)).toHaveValue('Survey and setting out');
    await expect(task(3)).toHaveCount(0);
    // The notice in every look (the theme switched in place: a reload would drop the draft).
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        // The dashboard as a whole is checked by its own tests; here the form with its notice.
        await expectNoAxeViolations(
          page,
          `timeline editor with the notice of another save, ${theme} ${viewport.width}`,
          `form[aria-label="Timeline ${project.name}"]`,
        );
        await form.screenshot({ path: `${SHOTS}/timeline-draft-notice-${theme}-${viewport.width}.png` });
      }
    }
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await form.getByRole('button', { name: 'Save Timeline' }).click();
    await expect(page.getByText('Timeline saved')).toBeVisible();
    await expect(notice).toHaveCount(0);
    const stored = await api<{ timelines: { tasks: { task: string }[] }[] }>(
      page,
      'GET',
      `/gantt-charts/project/${project._id}`,
    );
    expect(stored.body.timelines[0]!.tasks.map((t) => t.task)).toEqual(['Survey and setting out', 'Piling']);
  });

  await test.step('Show their version drops the draft for the newer plan', async () => {
    await task(2).fill('Piling, phase one');
    await theirSave(['Survey', 'Piling', 'Fencing', 'Handover']);
    await expect(notice).toBeVisible(LIVE);
    await notice.getByRole('button', { name: 'Show their version' }).click();
    await expect(task(4)).toHaveValue('Handover');
    await expect(task(2)).toHaveValue('Piling');
    await expect(notice).toHaveCount(0);
  });
  await otherStaff.close();
});

test('a new report e-mails the client with a link to it; the client turns these mails off in Account', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Report Staff ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Calabar Ports ${id}` });
  const first = await createProject(page, account._id, `Quay wall ${id}`);
  const addReport = async (project: { _id: string; code: string; name: string }, date: string) => {
    const res = await postReport(page, project, date, { tasks: 'Sheet piling', progress: 'On plan' });
    expect(res.status()).toBe(201);
    return (await res.json()).report._id as string;
  };
  const mailsAbout = (project: { name: string }) =>
    readMailDir(E2E_MAIL_DIR).filter(
      (m) => m.envelopeTo.includes(account.email) && m.subject === `New progress report for ${project.name}`,
    );

  const reportId = await addReport(first, '2026-04-02');
  const mail = await waitForMailInDir(
    E2E_MAIL_DIR,
    (m) => m.envelopeTo.includes(account.email) && m.subject === `New progress report for ${first.name}`,
  );
  const link = /https?:\/\/\S+#report-[0-9a-f-]+/.exec(mail.text)?.[0];
  expect(link).toBeDefined();
  expect(link).toContain(`project=${first._id}`);
  expect(link).toContain(`#report-${reportId}`);

  const client = await newClientPage(browser, account);
  await test.step('the link opens the report on the dashboard', async () => {
    const url = new URL(link!);
    await client.goto(`${url.pathname}${url.search}${url.hash}`);
    const heading = client.getByRole('heading', { name: 'Report of 2 Apr 2026' });
    await expect(heading).toBeFocused({ timeout: 30_000 });
    await expect(heading).toBeInViewport();
  });

  await test.step('the client turns report mails off in Account: nothing is mailed until turned on again', async () => {
    await client.getByRole('button', { name: 'Account' }).click();
    const dialog = client.getByRole('dialog', { name: 'Account' });
    const box = dialog.getByRole('checkbox', { name: 'E-mail me when a progress report is added' });
    await expect(box).toBeChecked();
    for (const theme of ['light', 'dark'] as const) {
      await client.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
      await expectNoAxeViolations(client, `account dialog ${theme}`);
      await client.screenshot({ path: `${SHOTS}/account-report-mail-${theme}.png` });
    }
    await box.uncheck();
    await expect(client.getByRole('status').filter({ hasText: 'Report e-mails turned off' })).toBeVisible();
    const quiet = await createProject(page, account._id, `Quiet basin ${id}`);
    await addReport(quiet, '2026-04-03');
    await box.check();
    await expect(client.getByRole('status').filter({ hasText: 'Report e-mails turned on' })).toBeVisible();
    const loud = await createProject(page, account._id, `Loud basin ${id}`);
    await addReport(loud, '2026-04-04');
    await waitForMailInDir(
      E2E_MAIL_DIR,
      (m) => m.envelopeTo.includes(account.email) && m.subject === `New progress report for ${loud.name}`,
    );
    // Mails go out in order; the one for the report added while mails were off never came.
    expect(mailsAbout(quiet)).toEqual([]);
    expect(mailsAbout(first)).toHaveLength(1);
  });
  await client.context().close();
});
