import { mkdirSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, PHONE, createUserViaApi, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// Screenshots for people to look at (not compared by the test).
const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/timeline-planning-shots';
mkdirSync(SHOTS, { recursive: true });

const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** A chart as words: its month headings, then per task its name and the months its bar covers. */
function chartShape(table: Locator) {
  return table.evaluate((el: HTMLTableElement) => {
    const months = [...el.tHead!.rows[0].cells].slice(1).map((c) => c.textContent!.trim());
    const rows = [...el.tBodies[0].rows].map((row) => {
      let col = 0;
      const bars: string[] = [];
      for (const cell of [...row.cells].slice(1)) {
        if (cell.querySelector('span')) bars.push(`${months[col]}..${months[col + cell.colSpan - 1]}`);
        col += cell.colSpan;
      }
      return `${row.cells[0].firstChild!.textContent!.trim()}: ${bars.join(', ')}`;
    });
    return { months, rows };
  });
}

// Issue 22: a task runs from a start month to an end month, staff reorder tasks by keyboard, and the
// chart the client sees stands beside the editor and follows the typing (decision 253).
test('staff plan a multi-month task, reorder by keyboard, the chart beside the editor follows the typing, and the client sees the same bars', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const id = stamp();
  await signInAs(page, { role: 'admin', name: `Planner ${id}` });
  const account = await createUserViaApi(page.request, { role: 'client', name: `Quay Client ${id}` });
  const created = await api<{ project: { _id: string; name: string } }>(page, 'POST', '/projects', { name: `Quay wall ${id}`, code: `QW-${id}`.toUpperCase(), clientId: account._id });
  expect(created.status).toBe(201);
  const project = created.body.project;
  await page.setViewportSize(DESKTOP);
  await page.goto(`${PATHS.adminDashboard}?client=${account._id}&project=${project._id}`);

  const editor = page.getByRole('form', { name: 'New timeline' });
  const preview = page.getByRole('table', { name: `Preview of ${project.name}: tasks by month` });
  await editor.getByLabel('Task 1', { exact: true }).fill('Sheet piling');
  await editor.getByLabel('Start month of task 1').fill('2026-03');
  // Typed, not saved: the chart beside the editor already shows it.
  await expect(preview.getByRole('columnheader')).toHaveText(['Task', 'Mar 2026']);
  await editor.getByLabel('End of task 1').fill('2026-05');
  await expect.poll(() => chartShape(preview)).toEqual({ months: ['Mar 2026', 'Apr 2026', 'May 2026'], rows: ['Sheet piling: Mar 2026..May 2026'] });
  await expect(preview.getByRole('cell', { name: /March 2026 to May 2026, 3 months/ })).toBeVisible();
  await editor.getByLabel('Status of task 1').selectOption('in-progress');

  await editor.getByRole('button', { name: 'Add task' }).click();
  await editor.getByLabel('Task 2', { exact: true }).fill('Capping beam');
  await editor.getByLabel('Start month of task 2').fill('2026-06');
  // An end before the start is said at once, beside the field, and drawn as one month until fixed.
  await editor.getByLabel('End of task 2').fill('2026-04');
  await expect(editor.getByLabel('End of task 2')).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.getByLabel('End of task 2')).toHaveAccessibleDescription('The end is before the start: choose the start month or a later one.');
  await expect.poll(async () => (await chartShape(preview)).rows).toEqual(['Sheet piling: Mar 2026..May 2026', 'Capping beam: Jun 2026..Jun 2026']);
  await editor.getByRole('button', { name: 'Save Timeline' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to save timeline' })).toContainText('Task 2: End month: use the start month or a later one');
  await editor.getByLabel('End of task 2').fill('2026-07');
  await expect(editor.getByLabel('End of task 2')).not.toHaveAttribute('aria-invalid');

  // Reorder by keyboard: the moved task keeps the focus and the move is announced.
  await editor.getByRole('button', { name: 'Move task 2 up' }).focus();
  await page.keyboard.press('Enter');
  await expect(editor.getByLabel('Task 1', { exact: true })).toHaveValue('Capping beam');
  await expect(editor.getByLabel('Task 2', { exact: true })).toHaveValue('Sheet piling');
  await expect(editor.getByRole('button', { name: 'Move task 1 up' })).toBeDisabled();
  await expect(editor.getByRole('button', { name: 'Move task 1 down' })).toBeFocused();
  await expect(editor.getByRole('status')).toHaveText('Capping beam moved to position 1 of 2');
  await expect.poll(async () => (await chartShape(preview)).rows).toEqual(['Capping beam: Jun 2026..Jul 2026', 'Sheet piling: Mar 2026..May 2026']);
  // Moving the start keeps the task's length.
  await editor.getByLabel('Start month of task 2').fill('2026-02');
  await expect(editor.getByLabel('End of task 2')).toHaveValue('2026-04');

  await editor.getByRole('button', { name: 'Save Timeline' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Timeline saved' })).toBeVisible();
  const saved = page.getByRole('form', { name: `Timeline ${project.name}` });
  await expect(saved.getByLabel('Task 1', { exact: true })).toHaveValue('Capping beam');
  const staffShape = await chartShape(preview);
  expect(staffShape).toEqual({
    months: ['Feb 2026', 'Mar 2026', 'Apr 2026', 'May 2026', 'Jun 2026', 'Jul 2026'],
    rows: ['Capping beam: Jun 2026..Jul 2026', 'Sheet piling: Feb 2026..Apr 2026'],
  });
  // Stored in this order, with the specification's month as the start.
  const stored = await api<{ timelines: { tasks: { task: string; month: string; endMonth: string }[] }[] }>(page, 'GET', `/gantt-charts/project/${project._id}`);
  expect(stored.body.timelines[0].tasks.map((t) => `${t.task} ${t.month}..${t.endMonth}`)).toEqual(['Capping beam 2026-06..2026-07', 'Sheet piling 2026-02..2026-04']);
  await expectNoAxeViolations(page, 'timeline editor and preview', 'section[aria-labelledby="timeline-heading"]');

  // The client sees the same chart as the staff's preview.
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: E2E_BASE_URL });
  const client = await context.newPage();
  await signInAs(client, { role: 'client', account });
  await client.goto(`${PATHS.clientDashboard}?project=${project._id}`);
  const clientChart = client.getByRole('table', { name: `${project.name}: tasks by month`, exact: true });
  await expect(clientChart).toBeVisible();
  expect(await chartShape(clientChart)).toEqual(staffShape);
  await expect(clientChart.getByRole('cell', { name: /February 2026 to April 2026, 3 months/ })).toBeVisible();
  await context.close();

  // Looks: the editor and its chart at 390 and 1280 px, light and dark.
  const section = page.locator('section[aria-labelledby="timeline-heading"]');
  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.setViewportSize(viewport);
      await page.reload();
      await expect(saved).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${theme} ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      await expectNoAxeViolations(page, `timeline editor ${theme} ${viewport.width}`, 'section[aria-labelledby="timeline-heading"]');
      await section.screenshot({ path: `${SHOTS}/editor-${theme}-${viewport.width}.png` });
    }
  }
});
