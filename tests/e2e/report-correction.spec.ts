import { mkdirSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { formatDate } from '../../common/dates.ts';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL, E2E_MAIL_DIR } from '../../playwright.config.ts';
import { readMailDir, waitForMailInDir } from '../helpers/smtp-server.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { api, postReport, testImage } from './portal-helpers.ts';

// Issue 22: staff correct a report the client has open. The client sees the new text and
// 'Corrected on' live, is not mailed unless staff tick 'Tell the client', and staff open the history.

const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/report-correction-shots';
mkdirSync(SHOTS, { recursive: true });
const LIVE = { timeout: 5_000 };
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test('staff correct a report the client has open; the client reads the correction live; staff open its history', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Kemi Staff ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Delta Haulage ${id}` });
  const created = await api<{ project: { _id: string; code: string; name: string } }>(page, 'POST', '/projects', {
    name: `Sapele jetty ${id}`,
    code: `RC-${id}`.toUpperCase(),
    clientId: account._id,
    startDate: '2026-01-05',
    endDate: '2026-12-18',
  });
  expect(created.status).toBe(201);
  const project = created.body.project;
  const posted = await postReport(page, project, '2026-03-09', {
    tasks: 'Poured the ring beam',
    progress: 'Sixty percnet complete',
    images: { name: 'ring-beam.png', mimeType: 'image/png', buffer: await testImage('png', '#0b5cab') },
  });
  expect(posted.status()).toBe(201);
  const correctedMails = () => readMailDir(E2E_MAIL_DIR).filter((m) => m.envelopeTo.includes(account.email) && m.subject === `Progress report corrected for ${project.name}`);
  await waitForMailInDir(E2E_MAIL_DIR, (m) => m.envelopeTo.includes(account.email) && m.subject === `New progress report for ${project.name}`);

  const clientContext = await browser.newContext({ viewport: DESKTOP, baseURL: E2E_BASE_URL });
  const client = await clientContext.newPage();
  await signInAs(client, { role: 'client', account });
  await client.goto(PATHS.clientDashboard);
  const clientReport = client.getByRole('article', { name: 'Report of 9 Mar 2026' });
  await expect(clientReport).toContainText('Sixty percnet complete');
  await expect(clientReport).not.toContainText('Corrected on');
  // Clients read reports; they neither edit them nor open their history.
  await expect(clientReport.getByRole('button', { name: /Edit|History/ })).toHaveCount(0);
  await client.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${project._id}`);
  const staffReport = page.getByRole('article', { name: 'Report of 9 Mar 2026' });
  const dialog = page.getByRole('dialog', { name: 'Edit report of 9 Mar 2026' });

  await test.step('staff correct the typo without telling the client', async () => {
    await staffReport.getByRole('button', { name: 'Edit the report of 9 Mar 2026' }).click();
    await expect(dialog.getByLabel('Progress *')).toHaveValue('Sixty percnet complete');
    // Creation's rules: a required field left empty is refused with its message, and nothing is saved.
    await dialog.getByLabel('Tasks *').fill('');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.getByText('Tasks is required')).toBeVisible();
    await expect(dialog.getByLabel('Tasks *')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Tasks *').fill('Poured the ring beam');
    await dialog.getByLabel('Progress *').fill('Sixty percent complete');
    await expect(dialog.getByLabel('Tell the client')).not.toBeChecked();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Report updated successfully')).toBeVisible();
  });

  await test.step('the open client dashboard shows the new text and the correction date, without a reload', async () => {
    await expect(clientReport).toContainText('Sixty percent complete', LIVE);
    await expect(clientReport).not.toContainText('percnet');
    await expect(clientReport).toContainText(`Corrected on ${formatDate(new Date().toISOString())}`);
    expect(await client.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await expectNoAxeViolations(client, 'client dashboard with a corrected report');
    await clientReport.screenshot({ path: `${SHOTS}/client-corrected-report-light-1280.png` });
  });

  await test.step('a second correction with "Tell the client" mails the client once; the first mailed nobody', async () => {
    await staffReport.getByRole('button', { name: 'Edit the report of 9 Mar 2026' }).click();
    await dialog.getByLabel('Next steps').fill('Deck slab formwork');
    await dialog.getByRole('button', { name: 'Remove ring-beam.png' }).click();
    await dialog.getByLabel('Tell the client').check();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await waitForMailInDir(E2E_MAIL_DIR, (m) => m.envelopeTo.includes(account.email) && m.subject === `Progress report corrected for ${project.name}`);
    // Mails leave in order: had the first correction been mailed, it would be here too.
    expect(correctedMails()).toHaveLength(1);
    await expect(clientReport.getByRole('img')).toHaveCount(0, LIVE);
  });

  await test.step('staff open the history: the current version and each earlier one, with who and when', async () => {
    await staffReport.getByRole('button', { name: 'History of the report of 9 Mar 2026' }).click();
    const history = page.getByRole('dialog', { name: 'History of the report of 9 Mar 2026' });
    const versions = history.getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
    await expect(versions).toHaveCount(3);
    await expect(versions.nth(0)).toContainText('Version 3 (current)');
    await expect(versions.nth(0)).toContainText(`Corrected by Kemi Staff ${id}`);
    await expect(versions.nth(0)).toContainText('Deck slab formwork');
    await expect(versions.nth(1)).toContainText('Version 2');
    await expect(versions.nth(1)).toContainText('Sixty percent complete');
    await expect(versions.nth(1)).toContainText('Images: ring-beam.png');
    await expect(versions.nth(2)).toContainText('Version 1');
    await expect(versions.nth(2)).toContainText(`Written by Kemi Staff ${id}`);
    await expect(versions.nth(2)).toContainText('Sixty percnet complete');
    await expect(versions.nth(2)).toContainText('WAT');
    await expectNoAxeViolations(page, 'report history dialog');
    await page.screenshot({ path: `${SHOTS}/report-history-light-1280.png` });
    await history.getByRole('button', { name: /Close/ }).click();
  });

  await test.step('the edit dialogs, at phone and desktop width, light and dark, are axe-clean', async () => {
    const clientRow = page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: account.name });
    const openers: Array<[string, () => Locator, string]> = [
      ['edit-report', () => staffReport.getByRole('button', { name: 'Edit the report of 9 Mar 2026' }), 'Edit report of 9 Mar 2026'],
      ['edit-project', () => page.getByRole('region', { name: 'Project details' }).getByRole('button', { name: 'Edit project' }), `Edit project ${project.name}`],
      ['edit-client', () => clientRow.getByRole('button', { name: `Edit ${account.name}` }), `Edit client ${account.name}`],
    ];
    for (const theme of ['light', 'dark'] as const) {
      for (const viewport of [PHONE, DESKTOP]) {
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        await page.setViewportSize(viewport);
        await page.reload();
        await expect(staffReport).toBeVisible();
        for (const [name, opener, title] of openers) {
          await opener().click();
          const open = page.getByRole('dialog', { name: title });
          await expect(open).toBeVisible();
          await expectNoAxeViolations(page, `${name} ${theme} ${viewport.width}`);
          await page.screenshot({ path: `${SHOTS}/${name}-${theme}-${viewport.width}.png` });
          if (name === 'edit-report') {
            // The dialog scrolls: its lower half holds the images and 'Tell the client'.
            await open.getByLabel('Tell the client').scrollIntoViewIfNeeded();
            await page.screenshot({ path: `${SHOTS}/${name}-lower-${theme}-${viewport.width}.png` });
          }
          await page.keyboard.press('Escape');
          await expect(open).toBeHidden();
        }
      }
    }
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await page.setViewportSize(DESKTOP);
  });

  await clientContext.close();
});

test('staff correct a project and a client from the screens where they are shown', async ({ page }) => {
  test.setTimeout(90_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Tunde Staff ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Niger Bridge Works ${id}` });
  const taken = await createUserViaApi(page.request, { role: 'client', name: `Taken Name ${id}` });
  const made = await api<{ project: { _id: string; name: string } }>(page, 'POST', '/projects', { name: `Onitsha bridge ${id}`, code: `NB-${id}`.toUpperCase(), clientId: account._id, startDate: '2026-02-01' });
  await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${made.body.project._id}`);

  await test.step('the project: dates refused in the wrong order, then saved', async () => {
    const card = page.getByRole('region', { name: 'Project details' });
    await card.getByRole('button', { name: 'Edit project' }).click();
    const dialog = page.getByRole('dialog', { name: `Edit project ${made.body.project.name}` });
    await dialog.getByLabel('End date').fill('2026-01-15');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.getByText('The end date must not be before the start date')).toBeVisible();
    await dialog.getByLabel('End date').fill('2026-11-30');
    await dialog.getByLabel('Project name *').fill(`Onitsha second bridge ${id}`);
    await dialog.getByLabel('Status').selectOption('completed');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole('heading', { name: `Onitsha second bridge ${id}`, exact: true })).toBeVisible();
    await expect(card).toContainText('30 Nov 2026');
    await expect(card).toContainText('Completed');
  });

  await test.step("the client: another client's username is refused with creation's words, then a new name saved", async () => {
    const row = page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: account.name });
    await row.getByRole('button', { name: `Edit ${account.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit client ${account.name}` });
    await dialog.getByLabel('Username').fill(taken.username!);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog.getByText(`The username ${taken.username} is already taken`)).toBeVisible();
    await dialog.getByLabel('Username').fill(account.username!);
    await dialog.getByLabel('Client name').fill(`Niger Bridge Works Ltd ${id}`);
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('list', { name: 'Clients' })).toContainText(`Niger Bridge Works Ltd ${id}`);
  });
});
