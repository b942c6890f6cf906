import { mkdirSync } from 'node:fs';
import type { Page, Route } from '@playwright/test';
import { company } from '../../common/content/company.ts';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test, useTheme, type E2EAccount } from './fixtures.ts';
import { api, ORIGIN, postReport, testImage } from './portal-helpers.ts';

// Screenshots for people to look at (not compared by the test).
const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/portal-shots';
mkdirSync(SHOTS, { recursive: true });

/** Nothing sticks out sideways: a phone user never scrolls the whole page horizontally. */
async function expectNoHorizontalOverflow(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

interface Seed {
  admin: E2EAccount;
  client: E2EAccount;
  projectId: string;
  projectName: string;
}

/** A client with one project that has a timeline and a report with images, made through the API. */
async function seed(page: Page): Promise<Seed> {
  const admin = await signInAs(page, { role: 'admin', name: 'Screen Staff' });
  const client = await createUserViaApi(page.request, { role: 'client', name: 'Harbour Logistics Ltd' });
  const code = `SCR-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const projectName = 'Onne quay crane foundations';
  const created = await api<{ project: { _id: string } }>(page, 'POST', '/projects', {
    name: projectName,
    code,
    description: 'Piled foundations for two ship-to-shore cranes, with drainage and lighting.',
    startDate: '2026-01-05',
    endDate: '2026-08-28',
    budget: '120000000',
    clientId: client._id,
  });
  expect(created.status).toBe(201);
  const projectId = created.body.project._id;
  await api(page, 'POST', '/projects', { name: 'Warehouse roof repair', code: `${code}-B`, clientId: client._id });
  const timeline = await api(page, 'POST', '/gantt-charts', {
    projectId,
    projectTitle: projectName,
    tasks: [
      { task: 'Site survey and mobilisation', month: '2026-01', status: 'completed' },
      { task: 'Test piles', month: '2026-02', status: 'completed' },
      { task: 'Production piling', month: '2026-03', status: 'in-progress' },
      { task: 'Pile caps and beams', month: '2026-05' },
      { task: 'Drainage and lighting', month: '2026-07' },
    ],
  });
  expect(timeline.status).toBe(201);
  const report = await postReport(page, { _id: projectId, code, name: projectName }, '2026-03-14', {
    tasks: 'Drove 18 production piles on the north crane rail.',
    progress: 'Piling is 45% complete and on schedule.',
    challenges: 'One pile refused early on a boulder layer.',
    actionTaken: 'Pre-drilled the boulder layer; pile driven to set.',
    nextSteps: 'Finish the north rail and start the south rail.',
    images: { name: 'north-rail.jpg', mimeType: 'image/jpeg', buffer: await testImage('jpeg', '#0b5cab') },
  });
  expect(report.status()).toBe(201);
  return { admin, client, projectId, projectName };
}

for (const theme of ['light', 'dark'] as const) {
  for (const viewport of [PHONE, DESKTOP]) {
    const size = `${viewport.width}x${viewport.height}`;
    test(`admin dashboard states are axe-clean (${theme}, ${size})`, async ({ page }) => {
      // Five axe runs over the whole dashboard (timeline, reports, thread): room for a loaded machine.
      test.setTimeout(180_000);
      await useTheme(page, theme);
      await page.setViewportSize(viewport);
      const s = await seed(page);
      await page.goto(PATHS.adminDashboard);
      await expect(page.getByText('Select a Client', { exact: true })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Clients' })).toBeVisible();
      await expectNoAxeViolations(page, `admin, nothing selected (${theme}, ${size})`);
      await page.screenshot({ path: `${SHOTS}/admin-empty-${theme}-${size}.png`, fullPage: true });

      await page.goto(`${PATHS.adminDashboard}?client=${s.client._id}`);
      await expect(page.getByText('Select a Project', { exact: true })).toBeVisible();
      await expect(page.getByRole('list', { name: /^Projects of/ }).getByRole('listitem')).toHaveCount(2);
      await expectNoAxeViolations(page, `admin, client selected (${theme}, ${size})`);

      await page.goto(`${PATHS.adminDashboard}?client=${s.client._id}&project=${s.projectId}`);
      await expect(page.getByRole('article', { name: 'Report of 14 Mar 2026' })).toBeVisible();
      await expect(page.getByRole('form', { name: `Timeline ${s.projectName}` })).toBeVisible();
      await expectNoAxeViolations(page, `admin, project selected (${theme}, ${size})`);
      await expectNoHorizontalOverflow(page);
      await page.screenshot({ path: `${SHOTS}/admin-project-${theme}-${size}.png`, fullPage: true });

      await page.getByRole('button', { name: 'Create New Project' }).click();
      await expect(page.getByRole('dialog', { name: 'Create New Project for Harbour Logistics Ltd' })).toBeVisible();
      await expectNoAxeViolations(page, `new project dialog (${theme}, ${size})`);
      await page.screenshot({ path: `${SHOTS}/admin-project-dialog-${theme}-${size}.png` });
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: 'Create Project Report' }).click();
      await expect(page.getByRole('dialog', { name: `Create Project Report for ${s.projectName}` })).toBeVisible();
      await expectNoAxeViolations(page, `new report dialog (${theme}, ${size})`);
      await page.screenshot({ path: `${SHOTS}/admin-report-dialog-${theme}-${size}.png` });
    });

    test(`client dashboard is axe-clean and usable (${theme}, ${size})`, async ({ page, browser }) => {
      const s = await seed(page);
      const context = await browser.newContext({ viewport, baseURL: test.info().project.use.baseURL, colorScheme: theme });
      const clientPage = await context.newPage();
      await useTheme(clientPage, theme);
      await signInAs(clientPage, { role: 'client', account: s.client });
      await clientPage.goto(PATHS.clientDashboard);
      await expect(clientPage.getByText('Select a Project', { exact: true })).toBeVisible();
      await expectNoAxeViolations(clientPage, `client, nothing selected (${theme}, ${size})`);
      await clientPage.screenshot({ path: `${SHOTS}/client-empty-${theme}-${size}.png`, fullPage: true });
      await clientPage.getByRole('button', { name: new RegExp(`^${s.projectName}`) }).click();
      await expect(clientPage.getByRole('table', { name: `${s.projectName}: tasks by month` })).toBeVisible();
      await expect(clientPage.getByRole('article', { name: 'Report of 14 Mar 2026' }).getByRole('img')).toHaveCount(1);
      await expectNoAxeViolations(clientPage, `client, project selected (${theme}, ${size})`);
      await expectNoHorizontalOverflow(clientPage);
      await clientPage.screenshot({ path: `${SHOTS}/client-project-${theme}-${size}.png`, fullPage: true });
      await context.close();
    });
  }
}

test("dialogs are modal: focus stays inside, Escape closes and focus returns to the opener; a new report is dated today", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const s = await seed(page);
  // 23:30 UTC is 00:30 the next day in Lagos: "today" is the company's day (issue 22, decision 236),
  // not UTC's nor the browser's.
  await page.clock.setFixedTime(new Date('2026-03-13T23:30:00Z'));
  await page.goto(`${PATHS.adminDashboard}?client=${s.client._id}&project=${s.projectId}`);
  const opener = page.getByRole('button', { name: 'Create Project Report' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: `Create Project Report for ${s.projectName}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Date *')).toHaveValue('2026-03-14');
  await expect(dialog.getByLabel('Team')).toHaveValue(company.name);
  // The page behind is inert: Tab walks the dialog's controls (and the browser's own toolbar, where
  // focus shows as the body), never the page under the dialog.
  let insideSeen = 0;
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const where = await dialog.evaluate((d) => (d.contains(document.activeElement) ? 'dialog' : document.activeElement === document.body ? 'body' : 'page'));
    expect(where).not.toBe('page');
    if (where === 'dialog') insideSeen++;
  }
  expect(insideSeen).toBeGreaterThan(30);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await opener.click();
  await dialog.getByRole('button', { name: 'Close dialog' }).click();
  await expect(dialog).toBeHidden();
});

test("failures show the spec's text and the server's message", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  const s = await seed(page);
  // A client id nobody has: the projects call answers 404.
  await page.goto(`${PATHS.adminDashboard}?client=00000000-0000-4000-8000-000000000000`);
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load projects' }).first()).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Client not found' }).first()).toBeVisible();

  // A duplicate project code: the server says why.
  await page.goto(`${PATHS.adminDashboard}?client=${s.client._id}`);
  const existing = await api<{ projects: { code: string }[] }>(page, 'GET', `/projects/client/${s.client._id}`);
  await page.getByRole('button', { name: 'Create New Project' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Project name *').fill('Copy');
  await dialog.getByLabel('Project code *').fill(existing.body.projects[0].code);
  await dialog.getByRole('button', { name: 'Create Project' }).click();
  const toastAlert = page.getByRole('alert').filter({ hasText: 'Failed to create project' });
  await expect(toastAlert).toContainText(`A project with the code ${existing.body.projects[0].code} already exists`);
  await page.keyboard.press('Escape');

  // The session ends behind the screen's back: the next change reports the server's reason.
  await page.request.post('/api/auth/logout', { headers: ORIGIN });
  await page.getByRole('button', { name: /change status of Harbour Logistics Ltd/ }).first().click();
  const statusAlert = page.getByRole('alert').filter({ hasText: 'Failed to update status' });
  await expect(statusAlert).toContainText('Please sign in to continue');
});

test("a project's messages that fail to load give the one 'Failed to load project data' toast, on both dashboards", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  const s = await seed(page);
  // The thread's call fails on the server's side (reports and timeline still load): after the
  // three retries the screen says so, as it does when the reports or the timeline fail.
  const threadDown = (route: Route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'SERVICE_UNAVAILABLE', message: 'The server is busy' }) });
  await page.route('**/api/messages/project/**', threadDown);
  await page.goto(`${PATHS.adminDashboard}?client=${s.client._id}&project=${s.projectId}`);
  await expect(page.getByRole('article', { name: 'Report of 14 Mar 2026' })).toBeVisible();
  const toastAlert = page.getByRole('region', { name: 'Notifications' }).getByRole('alert').filter({ hasText: 'Failed to load project data' });
  await expect(toastAlert).toHaveCount(1, { timeout: 20_000 });
  await expect(toastAlert).toContainText('The server is busy');
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load messages' })).toBeVisible();

  const context = await browser.newContext({ viewport: DESKTOP, baseURL: test.info().project.use.baseURL });
  const clientPage = await context.newPage();
  await signInAs(clientPage, { role: 'client', account: s.client });
  await clientPage.route('**/api/messages/project/**', threadDown);
  await clientPage.goto(`${PATHS.clientDashboard}?project=${s.projectId}`);
  await expect(clientPage.getByRole('article', { name: 'Report of 14 Mar 2026' })).toBeVisible();
  await expect(
    clientPage.getByRole('region', { name: 'Notifications' }).getByRole('alert').filter({ hasText: 'Failed to load project data' }),
  ).toHaveCount(1, { timeout: 20_000 });
  await context.close();
});

test(`long lists load a page at a time`, async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const s = await seed(page);
  // 49 more projects: 51 in all, one more than a page.
  const stamp = Date.now().toString(36).toUpperCase();
  for (let i = 0; i < 49; i++) {
    expect((await api(page, 'POST', '/projects', { name: `Batch project ${i}`, code: `BATCH-${stamp}-${i}`, clientId: s.client._id })).status).toBe(201);
  }
  await page.goto(`${PATHS.adminDashboard}?client=${s.client._id}`);
  const items = page.getByRole('list', { name: /^Projects of/ }).getByRole('listitem');
  await expect(items).toHaveCount(50);
  await page.getByRole('button', { name: 'Show more projects' }).click();
  await expect(items).toHaveCount(51);
  await expect(page.getByRole('button', { name: 'Show more projects' })).toHaveCount(0);
});
