import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, holdRequest, signInAs, test } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// Issue 22, Find: the header's search box for staff and for a client, driven by the keyboard.

const searchBox = (page: Page) => page.getByRole('combobox', { name: /^Search/ });
const results = (page: Page) => page.getByRole('listbox', { name: 'Search results' });
/** A state line shown under the box (the same words also go to the status line for screen readers). */
const shown = (page: Page, text: string) => page.locator('p:not([role="status"])').filter({ hasText: text });

/** '/' from the page (not from a field) focuses the box; then the term is typed. */
async function slashSearch(page: Page, term: string) {
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('/');
  await expect(searchBox(page)).toBeFocused();
  await page.keyboard.type(term);
}

test('staff and a client find their things from the header, by keyboard, and only their own', async ({ browser, page }, testInfo) => {
  test.setTimeout(180_000);
  const stamp = `q${Date.now().toString(36)}`;
  const otherWord = `z${Date.now().toString(36)}x`;
  const projectName = `Harbour crane ${stamp}`;

  // Staff and two clients; each client has a project, and each a message with a word of its own.
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Search Staff' });
  const clientContext = await browser.newContext({ viewport: DESKTOP });
  const clientPage = await clientContext.newPage();
  const client = await signInAs(clientPage, { role: 'client', name: `Ada Search ${stamp}` });
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  const other = await signInAs(otherPage, { role: 'client', name: `Obi Other ${stamp}` });
  const made = await api<{ project: { _id: string } }>(page, 'POST', '/projects', { name: projectName, code: `HC-${stamp}`.toUpperCase(), clientId: client._id, budget: '1000000' });
  expect(made.status).toBe(201);
  const projectId = made.body.project._id;
  const otherMade = await api<{ project: { _id: string } }>(page, 'POST', '/projects', { name: `Depot ${otherWord}`, code: `DP-${otherWord}`.toUpperCase(), clientId: other._id, budget: '1000000' });
  expect(otherMade.status).toBe(201);
  expect((await api(clientPage, 'POST', '/messages', { subject: 'Subject: Crane', text: `The crane for ${stamp} was inspected yesterday.`, projectId })).status).toBe(201);
  expect((await api(otherPage, 'POST', '/messages', { subject: 'Subject: Depot', text: `Only ${otherWord} is written here; ${stamp} too.`, projectId: otherMade.body.project._id })).status).toBe(201);

  await test.step("staff: '/' focuses the box, results come grouped and announced, Enter opens the chosen one", async () => {
    await page.goto(PATHS.adminDashboard);
    await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
    // '/' typed into a field stays in the field.
    const clientName = page.getByRole('form', { name: 'Add client' }).getByLabel('Client name');
    await clientName.fill('A/B');
    await clientName.press('/');
    await expect(clientName).toHaveValue('A/B/');
    await expect(clientName).toBeFocused();
    await clientName.fill('');

    await slashSearch(page, `${stamp} inspecting`);
    // 'inspecting' finds 'inspected' (English stems); both clients' messages hold the stamp, only one both words.
    await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(results(page).getByRole('group')).toHaveCount(1);
    await expect(results(page).getByRole('group', { name: 'Messages' }).getByRole('option')).toHaveCount(1);
    await expect(page.getByRole('status').filter({ hasText: '1 result in 1 group' })).toBeAttached();

    await searchBox(page).fill(stamp);
    await expect(results(page).getByRole('group')).toHaveCount(3);
    const groupNames = await results(page).getByRole('group').evaluateAll((groups) => groups.map((g) => document.getElementById(g.getAttribute('aria-labelledby')!)!.textContent));
    expect(groupNames).toEqual(['Clients', 'Projects', 'Messages']);
    await expect(results(page).getByRole('group', { name: 'Clients' }).getByRole('option')).toHaveCount(2);
    await expect(results(page).getByRole('group', { name: 'Messages' }).getByRole('option')).toHaveCount(2);
    await expect(page.getByRole('status').filter({ hasText: '5 results in 3 groups' })).toBeAttached();

    // Down to the third option: the project (after the two clients).
    for (let i = 0; i < 3; i++) await searchBox(page).press('ArrowDown');
    const chosen = results(page).getByRole('option', { selected: true });
    await expect(chosen).toContainText(projectName);
    await expect(searchBox(page)).toHaveAttribute('aria-activedescendant', (await chosen.getAttribute('id'))!);
    await searchBox(page).press('Enter');
    await expect(page).toHaveURL(new RegExp(`\\?client=${client._id}&project=${projectId}$`));
    await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
    await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'false');
  });

  await test.step('staff: nothing found, searching and a failure each say so', async () => {
    await slashSearch(page, 'nothingmatcheskx');
    await expect(shown(page, 'Nothing found for “nothingmatcheskx”')).toBeVisible();
    const release = await holdRequest(page, '**/api/search?q=slowterm*');
    await searchBox(page).fill('slowterm');
    await expect(shown(page, 'Searching…')).toBeVisible();
    release();
    await expect(shown(page, 'Nothing found for “slowterm”')).toBeVisible();
    await page.route('**/api/search?q=brokenterm*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' }) }));
    await searchBox(page).fill('brokenterm');
    await expect(shown(page, 'Search failed: Something went wrong on our side. Please try again.')).toBeVisible();
    await searchBox(page).press('Escape');
    await expect(searchBox(page)).toHaveAttribute('aria-expanded', 'false');
  });

  await test.step('a client finds its own project and message, never the other client’s', async () => {
    await clientPage.goto(PATHS.clientDashboard);
    await expect(clientPage.getByRole('heading', { name: 'Client Dashboard', level: 1 })).toBeVisible();
    await slashSearch(clientPage, stamp);
    await expect(results(clientPage).getByRole('group')).toHaveCount(2);
    await expect(results(clientPage).getByRole('group', { name: 'Projects' }).getByRole('option')).toHaveCount(1);
    // Both messages hold the stamp; the client sees only the one of its own thread.
    await expect(results(clientPage).getByRole('group', { name: 'Messages' }).getByRole('option')).toHaveCount(1);
    await expect(results(clientPage)).not.toContainText(otherWord);
    await searchBox(clientPage).fill(otherWord);
    await expect(shown(clientPage, `Nothing found for “${otherWord}”`)).toBeVisible();
    await searchBox(clientPage).fill(stamp);
    await expect(results(clientPage).getByRole('option')).toHaveCount(2);
    await searchBox(clientPage).press('Enter');
    await expect(clientPage).toHaveURL(new RegExp(`\\?project=${projectId}$`));
    await expect(clientPage.getByRole('heading', { name: projectName })).toBeVisible();
  });

  await test.step('open results are axe-clean and readable at 390 and 1280 px, light and dark', async () => {
    for (const [who, p, path] of [['admin', page, PATHS.adminDashboard], ['client', clientPage, PATHS.clientDashboard]] as const) {
      for (const theme of ['light', 'dark'] as const) {
        for (const viewport of [PHONE, DESKTOP]) {
          await p.evaluate((t) => localStorage.setItem('theme', t), theme);
          await p.setViewportSize(viewport);
          await p.goto(path);
          await expect(searchBox(p)).toBeVisible();
          await slashSearch(p, stamp);
          await expect(results(p).getByRole('option').first()).toBeVisible();
          await expectNoAxeViolations(p, `search ${who} ${theme} ${viewport.width}`);
          await p.screenshot({ path: testInfo.outputPath(`search-${who}-${theme}-${viewport.width}.png`) });
        }
      }
      await p.evaluate(() => localStorage.setItem('theme', 'light'));
    }
  });

  await clientContext.close();
  await otherContext.close();
});
