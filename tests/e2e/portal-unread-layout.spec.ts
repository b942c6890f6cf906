import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test, type E2EAccount } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// Screenshots for people to look at (not compared by the test).
const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/portal-live-shots';
mkdirSync(SHOTS, { recursive: true });

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const LIVE = { timeout: 5_000 };
const ORIGIN = { origin: E2E_BASE_URL };

/**
 * Axe over just these parts of the page (marked for the run): the badges this test made, not the
 * fifty client cards a busy database fills the staff list with (8-9 s an axe run on a loaded machine).
 */
async function expectPartsAccessible(page: Page, context: string, parts: Locator[]) {
  await page.locator('[data-axe-part]').evaluateAll((els) => els.forEach((el) => el.removeAttribute('data-axe-part')));
  for (const part of parts) await part.evaluate((el) => el.setAttribute('data-axe-part', ''));
  await expectNoAxeViolations(page, context, '[data-axe-part]');
}

async function newPageAs(browser: Browser, role: 'admin' | 'client', account: E2EAccount, viewport = DESKTOP, theme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
  await signInAs(page, { role, account });
  return page;
}

async function createProject(staff: Page, clientId: string, name: string): Promise<{ _id: string; name: string }> {
  const res = await api<{ project: { _id: string; name: string } }>(staff, 'POST', '/projects', { name, code: `UL-${stamp()}`.toUpperCase(), clientId });
  expect(res.status).toBe(201);
  return res.body.project;
}

async function sendMessage(page: Page, projectId: string, text: string) {
  expect((await api(page, 'POST', '/messages', { subject: 'Update', text, projectId })).status).toBe(201);
}

/** Consecutive months from 2026-01, one task in each. */
function tasksOverMonths(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const y = 2026 + Math.floor(i / 12);
    const m = String((i % 12) + 1).padStart(2, '0');
    return { task: `Stage ${i + 1} works`, month: `${y}-${m}`, status: i < n / 3 ? 'completed' : i < n / 2 ? 'in-progress' : 'not-started' };
  });
}

// One story of the capability (the client's badge and title live, reading clears them; staff's counts
// per client and project, the title, the jump). Totals, per-client isolation and which thread waits
// longest are API tests (messages-unread.test.ts); the whole dashboards' axe walks are in
// portal-screens.spec.ts, so axe here judges the badges' lists and rows.
test('unread badges per project, the count in the title, and staff jump to the next unread thread', async ({ page, browser, request }) => {
  // It took 26 s on a loaded machine (load 15 on 2 cores) with 150 other clients waiting.
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Badge Staff ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Delta Marine ${id}` });
  const quiet = await createProject(page, account._id, `Quiet project ${id}`);
  const busy = await createProject(page, account._id, `Busy project ${id}`);
  const client = await newPageAs(browser, 'client', account, PHONE);
  await client.goto(PATHS.clientDashboard);
  const myProjects = client.getByRole('list', { name: 'My projects' });
  await expect(myProjects.getByRole('listitem')).toHaveCount(2, { timeout: 30_000 });
  await expect(client).toHaveTitle('Client Dashboard');

  await test.step('messages from staff show as a badge on their project and in the title, live', async () => {
    await sendMessage(page, busy._id, 'First news');
    await sendMessage(page, busy._id, 'Second news');
    const busyItem = myProjects.getByRole('listitem').filter({ hasText: busy.name });
    await expect(busyItem).toContainText('2 unread', LIVE);
    await expect(myProjects.getByRole('listitem').filter({ hasText: quiet.name })).not.toContainText('unread');
    await expect(client).toHaveTitle('(2) Client Dashboard', LIVE);
    // The badge is part of the project's button name, so a screen reader hears it too.
    await expect(busyItem.getByRole('button', { name: new RegExp(`^${busy.name}.*2 unread`) })).toBeVisible();
    await expectNoAxeViolations(client, 'client badges, phone', 'ul[aria-label="My projects"]');
    await myProjects.screenshot({ path: `${SHOTS}/client-badges-light-390.png` });
  });

  await test.step('opening the project reads the messages: the badge and the title count go', async () => {
    await myProjects.getByRole('button', { name: new RegExp(`^${busy.name}`) }).click();
    await expect(client.getByText('Second news')).toBeVisible();
    const markRead = client.getByRole('button', { name: 'Mark as read' });
    await expect(markRead).toHaveCount(2);
    await markRead.first().click();
    await expect(markRead).toHaveCount(1);
    await markRead.first().click();
    await expect(markRead).toHaveCount(0);
    await expect(myProjects.getByRole('listitem').filter({ hasText: busy.name })).not.toContainText('unread', LIVE);
    await expect(client).toHaveTitle('Client Dashboard', LIVE);
  });

  const clients = page.getByRole('list', { name: 'Clients' });
  const projects = page.getByRole('list', { name: `Projects of ${account.name}` });
  const other = await createUserViaApi(page.request, { role: 'client', name: `Kano Grains ${id}` });
  await test.step('staff see unread per client and per project arrive live, in both themes', async () => {
    const otherProject = await createProject(page, other._id, `Silo inspection ${id}`);
    await page.goto(`${PATHS.adminDashboard}?client=${account._id}`);
    await expect(projects.getByRole('listitem')).toHaveCount(2);
    await sendMessage(client, quiet._id, 'A question about the quiet project');
    // The other client writes without a browser of its own.
    const login = await request.post('/api/auth/login', { data: { username: other.username, password: other.password }, headers: ORIGIN });
    expect(login.status()).toBe(200);
    const sent = await request.post('/api/messages', { data: { subject: 'Update', text: 'A question about the silos', projectId: otherProject._id }, headers: ORIGIN });
    expect(sent.status()).toBe(201);

    // Other tests write to the same database at the same time: the totals are the API tests' to check.
    const badgesShow = async () => {
      await expect(page.getByText(/\d+ unread messages? from clients in \d+ projects?/)).toBeVisible(LIVE);
      await expect(page).toHaveTitle(/^\(\d+\) Admin Dashboard$/, LIVE);
      await expect(clients.getByRole('listitem').filter({ hasText: account.name })).toContainText('1 unread', LIVE);
      await expect(clients.getByRole('listitem').filter({ hasText: other.name })).toContainText('1 unread', LIVE);
      await expect(projects.getByRole('listitem').filter({ hasText: quiet.name })).toContainText('1 unread', LIVE);
      await expect(projects.getByRole('listitem').filter({ hasText: busy.name })).not.toContainText('unread');
    };
    await badgesShow();
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') {
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        await page.reload();
        await expect(page.locator('html')).toHaveClass(/\bdark\b/);
        await badgesShow();
      }
      await expectPartsAccessible(page, `staff unread badges ${theme}`, [
        page.getByRole('status').filter({ hasText: /from clients in/ }).locator('..'),
        clients.getByRole('listitem').filter({ hasText: account.name }),
        clients.getByRole('listitem').filter({ hasText: other.name }),
        projects,
      ]);
      await page.screenshot({ path: `${SHOTS}/staff-badges-${theme}-1280.png` });
      await clients.getByRole('listitem').filter({ hasText: account.name }).screenshot({ path: `${SHOTS}/staff-client-badge-${theme}-1280.png` });
    }
  });

  await test.step("staff jump to the next unread thread; reading one clears only its client's badge", async () => {
    // The jump opens a thread that waits for an answer (which one waits longest is an API test).
    await page.getByRole('button', { name: 'Next unread thread' }).click();
    await expect(page).toHaveURL(/[?&]client=[^&]+&project=/);
    await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${quiet._id}`);
    await expect(page.getByText('A question about the quiet project')).toBeVisible();
    await page.getByRole('button', { name: 'Mark as read' }).click();
    await expect(clients.getByRole('listitem').filter({ hasText: account.name })).toContainText('No unread messages', LIVE);
    await expect(projects.getByRole('listitem').filter({ hasText: quiet.name })).not.toContainText('unread', LIVE);
    await expect(clients.getByRole('listitem').filter({ hasText: other.name })).toContainText('1 unread', LIVE);
  });
  await client.context().close();
});

for (const months of [6, 12, 24]) {
  test(`the client's timeline of ${months} months at 1280 and 390 px`, async ({ page, browser }) => {
    test.setTimeout(300_000);
    const id = stamp();
    await signInAs(page, { role: 'admin', name: `Plan Staff ${id}` });
    const account = await createUserViaApi(page.request, { role: 'client', name: `Timeline Client ${id}` });
    const project = await createProject(page, account._id, `Plan of ${months} months ${id}`);
    expect((await api(page, 'POST', '/gantt-charts', { projectId: project._id, projectTitle: project.name, tasks: tasksOverMonths(months) })).status).toBe(201);

    const client = await newPageAs(browser, 'client', account);
    await client.goto(PATHS.clientDashboard);
    for (const theme of ['light', 'dark'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        await client.evaluate((t) => localStorage.setItem('theme', t), theme);
        await client.setViewportSize(viewport);
        await client.reload();
        const chart = client.getByRole('region', { name: `Timeline: ${project.name}` });
        const table = chart.getByRole('table', { name: `${project.name}: tasks by month` });
        await expect(table).toBeVisible({ timeout: 20_000 });
        await expect(table.getByRole('columnheader')).toHaveCount(months + 1);
        // Short month names on screen, the full names for screen readers.
        await expect(table.getByRole('columnheader', { name: 'January 2026' })).toHaveText('Jan 2026');
        const hint = client.getByText(`Scroll sideways to see all ${months} months`, { exact: false });
        const overflow = await chart.evaluate((el) => el.scrollWidth - el.clientWidth);
        const fits = viewport === DESKTOP && months <= 12;
        if (fits) {
          expect(overflow, 'the whole plan fits the card').toBeLessThanOrEqual(1);
          await expect(hint).toHaveCount(0);
        } else {
          expect(overflow).toBeGreaterThan(0);
          await expect(hint).toBeVisible();
          // Keyboard: focus the chart, arrow right scrolls; the task column stays in view.
          const taskCell = table.getByRole('rowheader').first();
          const before = await taskCell.boundingBox();
          await chart.focus();
          await expect(chart).toBeFocused();
          for (let i = 0; i < 6; i++) await chart.press('ArrowRight');
          await expect.poll(() => chart.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
          // Sticky: the task column has not moved while the months slid under it.
          const after = await taskCell.boundingBox();
          expect(after!.x).toBeCloseTo(before!.x, 0);
        }
        // Nothing sticks out of the page itself.
        expect(await client.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        await expectNoAxeViolations(client, `timeline ${months} months ${theme} ${viewport.width}`);
        await client.screenshot({ path: `${SHOTS}/timeline-${months}m-${theme}-${viewport.width}.png`, fullPage: true });
      }
    }
    await client.context().close();
  });
}

test('staff screens keep long client and project names whole at 1024, 1280 and 1440 px', async ({ page }) => {
  test.setTimeout(300_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Layout Staff ${id}` });
  const longName = `Chukwuemekaoluwaseun Adebayo-Nwachukwu Integrated Engineering and Logistics Services Limited ${id}`;
  const account = await createUserViaApi(page.request, { role: 'client', name: longName });
  const projectName = `Rehabilitation of the Trans-Amadi Industrial Layout Drainage and Access Roads, Phase Two ${id}`;
  const project = await createProject(page, account._id, projectName);
  for (const width of [1024, 1280, 1440]) {
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${project._id}`);
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.reload();
      const clientName = page.getByRole('list', { name: 'Clients' }).getByText(longName, { exact: true });
      await expect(clientName).toBeVisible({ timeout: 30_000 });
      // Whole, wrapped at word boundaries: no clipped text, and no word split across lines.
      for (const el of [clientName, page.getByRole('list', { name: /^Projects of/ }).getByText(projectName, { exact: true })]) {
        const box = await el.evaluate((node) => {
          const style = getComputedStyle(node);
          return { clipped: node.scrollWidth > node.clientWidth + 1, ellipsis: style.textOverflow === 'ellipsis', wrap: style.overflowWrap, wordBreak: style.wordBreak };
        });
        expect(box).toEqual({ clipped: false, ellipsis: false, wrap: 'break-word', wordBreak: 'normal' });
      }
      const email = page.getByRole('list', { name: 'Clients' }).getByText(account.email, { exact: true });
      await expect(email).toBeVisible();
      expect(await email.evaluate((node) => node.scrollWidth <= node.clientWidth + 1)).toBe(true);
      await expect(page.getByRole('heading', { name: `Projects of ${longName}` })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Project details' }).getByRole('heading', { name: projectName })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await expectNoAxeViolations(page, `staff long names ${theme} ${width}`);
      await page.screenshot({ path: `${SHOTS}/staff-long-names-${theme}-${width}.png`, fullPage: true });
    }
  }
});
