import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, expect, expectNoAxeViolations, screenshotEveryLook, signInAs, test } from './fixtures.ts';
import { api } from './portal-helpers.ts';
import { publishSeedCompany } from './site-content-helpers.ts';

// Issue 24, the website belongs to its owners: an editor changes the company's phone number, sees
// the draft saved, publishes it, finds the publish in the history with what changed side by side,
// restores the earlier revision as a draft, and is told when someone else saved first. The editor is axe-clean in both themes.

const SHOTS = 'test-results/site-content';
mkdirSync(SHOTS, { recursive: true });

const draft = (page: Page) => page.getByRole('region', { name: 'Draft' });
const history = (page: Page) => page.getByRole('region', { name: 'History' });

test('an editor changes the phone number, publishes, finds it in the history and restores the earlier revision', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Ifeoma Editor', staffRole: 'editor' });
  const phone = `+234 800 555 ${String(Date.now()).slice(-4)}`;

  await page.goto(PATHS.adminDashboard);
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Website' }).click();
  await expect(page).toHaveURL(PATHS.adminWebsite);
  await page.getByRole('link', { name: 'Company profile' }).click();
  await expect(page.getByRole('heading', { name: 'Company profile', level: 1 })).toBeVisible();

  const phoneField = draft(page).getByLabel('Phone', { exact: true });
  const before = await phoneField.inputValue();
  expect(before).not.toBe(phone);

  // A field the schema refuses is marked, and nothing is saved.
  const email = draft(page).getByLabel('E-mail', { exact: true });
  const goodEmail = await email.inputValue();
  await email.fill('not an address');
  await expect(draft(page).getByRole('status')).toHaveText('Not saved: correct the marked fields');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(email).toHaveAccessibleDescription(/email/i);
  await email.fill(goodEmail);

  await phoneField.fill(phone);
  await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved .+ \(version \d+\)$/);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /Visitors now see revision \d+/ }).first()).toBeVisible();

  const newest = history(page).getByRole('listitem').first();
  await expect(newest).toContainText('Published by Ifeoma Editor');
  await newest.getByRole('button', { name: /^Show changes/ }).click();
  const row = newest.getByRole('row', { name: /^phone/ });
  await expect(row.getByRole('cell').nth(0)).toHaveText(before);
  await expect(row.getByRole('cell').nth(1)).toHaveText(phone);

  // The revision before: restored as the draft; visitors keep the published one until a publish.
  await history(page).getByRole('listitem').nth(1).getByRole('button', { name: /^Restore as draft/ }).click();
  await expect(page.getByRole('status').filter({ hasText: /is now the draft/ }).first()).toBeVisible();
  await expect(phoneField).toHaveValue(before);
  await page.getByRole('link', { name: 'All sections' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Company profile' })).toContainText('Draft not published');

  await page.getByRole('link', { name: 'Company profile' }).click();
  await expect(phoneField).toHaveValue(before);

  // Someone else saves while this editor has the form open: the next autosave is refused and says
  // who saved and when; nothing is overwritten, and 'Load their version' shows theirs.
  const current = await api<{ draft: { version: number; document: Record<string, unknown> } }>(page, 'GET', '/site-content/sections/company');
  const theirs = await api(page, 'PUT', '/site-content/sections/company/draft', {
    version: current.body.draft.version,
    document: { ...current.body.draft.document, tagline: 'Their tagline' },
  });
  expect(theirs.status).toBe(200);
  await draft(page).getByLabel('Tagline').fill('My tagline');
  await expect(draft(page).getByRole('status')).toHaveText(/^Ifeoma Editor saved this section at .+ you were editing version \d+\./);
  await draft(page).getByRole('button', { name: 'Load their version' }).click();
  await expect(draft(page).getByLabel('Tagline')).toHaveValue('Their tagline');
  await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved/);

  await history(page).getByRole('listitem').first().getByRole('button', { name: /^Show changes/ }).click();
  await screenshotEveryLook(page, 'company-editor', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
    await expect(history(page).getByRole('table')).toBeVisible();
    await expectNoAxeViolations(page, `website editor ${theme} ${viewport.width}`);
  });
  await page.goto(PATHS.adminWebsite);
  await screenshotEveryLook(page, 'sections', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
    await expect(page.getByRole('link', { name: 'Footer' })).toBeVisible();
    await expectNoAxeViolations(page, `website sections ${theme} ${viewport.width}`);
  });
  // Decision 289: the pages follow what is published; the specs after this one expect the seeded company.
  await publishSeedCompany(page);
});

test('list sections: a list editor for texts and one form per record, with the schema’s messages at the field', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Kelechi Editor', staffRole: 'editor' });
  await page.goto(`${PATHS.adminWebsite}/about`);
  const story = draft(page).getByRole('group', { name: 'Story' });
  await expect(story.getByLabel('Paragraph 1', { exact: true })).toHaveValue(/founded in 2011/);
  const values = draft(page).getByRole('group', { name: /^Values/ });
  const first = values.getByRole('listitem').first();
  const description = first.getByLabel('Description', { exact: true });
  await description.fill('');
  await expect(draft(page).getByRole('status')).toHaveText('Not saved: correct the marked fields');
  await expect(description).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page, 'about editor with a refused list');

  await page.goto(`${PATHS.adminWebsite}/team`);
  await expect(draft(page).getByRole('group', { name: /^Members/ }).getByLabel('Position', { exact: true }).first()).toHaveValue('Chief Executive Officer');
  await expectNoAxeViolations(page, 'team editor');
});
