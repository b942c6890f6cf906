import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';
import { SECTION_KEYS, SECTION_TITLES, type SectionKey } from '../../common/content/sections.ts';
import {
  DESKTOP,
  expect,
  expectNoAxeViolations,
  expectNoAxeViolationsInBothThemes,
  screenshotEveryLook,
  signInAs,
  test,
} from './fixtures.ts';
import { api, testImage } from './portal-helpers.ts';

// Issue 24, decision 291: the website editor's record lists and media picker. An editor adds a team
// member, uploads the photo through the picker (which chooses it), moves the new member up (the
// focus follows it, a live region says where it went), removes another member after confirming,
// and publishes: the photo is then in use by "Website: Team". The editor and the picker are
// axe-clean in both themes at 390 and 1280 px.

const SHOTS = 'test-results/website-editors';
mkdirSync(SHOTS, { recursive: true });

const draft = (page: Page) => page.getByRole('region', { name: 'Draft' });
const member = (page: Page, name: RegExp) => draft(page).getByRole('listitem', { name });

test('an editor adds a team member with a photo uploaded through the picker, reorders, removes one and publishes', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Ngozi Editor', staffRole: 'editor' });
  const seeds = SECTION_SEEDS.team.members;
  const newName = `Chiamaka Obi ${String(Date.now()).slice(-4)}`;

  await page.goto(`${PATHS.adminWebsite}/team`);
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  const members = draft(page).getByRole('group', { name: /^Members/ });
  await expect(members.getByRole('listitem', { name: /^\d+\. / })).toHaveCount(seeds.length);
  // The starting photos keep their drawn images.
  await expect(member(page, new RegExp(seeds[0].name)).getByText('Starting image')).toBeVisible();

  // Add: an empty record at the end, the focus on its heading.
  await draft(page).getByRole('button', { name: 'Add team member' }).click();
  const added = draft(page).getByRole('listitem', { name: `${seeds.length + 1}. Team member ${seeds.length + 1}` });
  await expect(added.getByRole('heading')).toBeFocused();
  await added.getByLabel('Name', { exact: true }).fill(newName);
  const mine = member(page, new RegExp(newName));
  await mine.getByLabel('Position', { exact: true }).fill('Site Engineer');
  await mine
    .getByLabel('Bio', { exact: true })
    .fill('Chiamaka leads the site teams on the jetty rehabilitation and pipeline tie-ins.');
  // Not saved while the record lacks its photo: the field says so.
  await expect(draft(page).getByRole('status')).toHaveText('Not saved: correct the marked fields');
  await expect(mine.getByText('Choose an image from the media library')).toBeVisible();

  // The picker: upload a photo from it; the upload is chosen and the dialog closes.
  await mine.getByRole('button', { name: 'Choose image' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose an image' });
  await expect(picker).toBeVisible();
  await picker
    .getByLabel('Image file')
    .setInputFiles({
      name: 'chiamaka.jpg',
      mimeType: 'image/jpeg',
      buffer: await testImage('jpeg', '#0b4f8a', { width: 800, height: 800 }),
    });
  await picker.getByLabel('Alt text (required)').fill(`${newName} in a hard hat at the jetty`);
  await picker.getByRole('button', { name: 'Upload' }).click();
  await expect(picker).toBeHidden();
  await expect(mine.getByText(`${newName} in a hard hat at the jetty`)).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Change image' })).toBeFocused();
  await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved .+ \(version \d+\)$/);

  // The picker again: the library searched by alt text, axe-clean in every look.
  await mine.getByRole('button', { name: 'Change image' }).click();
  await picker.getByLabel('Search by alt text').fill('hard hat');
  await expect(picker.getByRole('button', { name: `${newName} in a hard hat at the jetty` })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await picker.getByLabel('Search by alt text').fill('no such picture anywhere');
  await expect(picker.getByText('No image matches')).toBeVisible();
  await picker.getByLabel('Search by alt text').fill('hard hat');
  await screenshotEveryLook(
    page,
    'picker',
    (f) => `${SHOTS}/${f}`,
    async ({ theme, viewport }) => {
      await expect(picker.getByRole('button', { name: `${newName} in a hard hat at the jetty` })).toBeVisible();
      await expectNoAxeViolations(page, `media picker ${theme} ${viewport.width}`);
    },
  );
  await picker.getByRole('button', { name: 'Close dialog' }).click();
  await expect(picker).toBeHidden();
  await expect(mine.getByRole('button', { name: 'Change image' })).toBeFocused();

  // Move up: the focus stays on the moved record's button, and the move is announced.
  await mine.getByRole('button', { name: `Move up: ${newName}` }).click();
  await expect(member(page, new RegExp(`^${seeds.length}\\. ${newName}`))).toBeVisible();
  await expect(mine.getByRole('button', { name: `Move up: ${newName}` })).toBeFocused();
  await expect(members.locator('[aria-live="polite"]').first()).toContainText(
    `${newName} moved to position ${seeds.length} of ${seeds.length + 1}.`,
  );

  // Remove the second member, asked first; 'Keep it' would have kept them.
  const second = member(page, new RegExp(seeds[1].name));
  await second.getByRole('button', { name: `Remove: ${seeds[1].name}` }).click();
  await expect(second.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await second.getByRole('button', { name: 'Keep it' }).click();
  await expect(second.getByRole('button', { name: `Remove: ${seeds[1].name}` })).toBeFocused();
  await second.getByRole('button', { name: `Remove: ${seeds[1].name}` }).click();
  await second.getByRole('button', { name: 'Yes, remove' }).click();
  await expect(member(page, new RegExp(seeds[1].name))).toHaveCount(0);
  await expect(members.getByRole('listitem', { name: /^\d+\. / })).toHaveCount(seeds.length);
  await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved .+ \(version \d+\)$/);

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /Visitors now see revision \d+/ })
      .first(),
  ).toBeVisible();

  // Published: the order and the photo as edited, and the photo now in use (the library refuses to delete it).
  const section = await api<{ published: { document: { members: { name: string; image: string }[] } } }>(
    page,
    'GET',
    '/site-content/sections/team',
  );
  const names = section.body.published.document.members.map((m) => m.name);
  expect(names).toEqual([
    seeds[0].name,
    ...seeds.slice(2, -1).map((m) => m.name),
    newName,
    seeds[seeds.length - 1].name,
  ]);
  const image = section.body.published.document.members.find((m) => m.name === newName)!.image;
  expect(image).toMatch(/^media\/[0-9a-f-]{36}$/);
  const used = await api<{ item: { usages: { label: string }[] } }>(page, 'GET', `/${image}`);
  expect(used.body.item.usages.map((u) => u.label)).toEqual(['Website: Team']);
  const refused = await page.request.delete(`/api/${image}`, { headers: { origin: E2E_BASE_URL } });
  expect(refused.status()).toBe(409);

  await screenshotEveryLook(
    page,
    'team-editor',
    (f) => `${SHOTS}/${f}`,
    async ({ theme, viewport }) => {
      await expect(mine.getByRole('button', { name: 'Change image' })).toBeVisible();
      await expectNoAxeViolations(page, `team editor ${theme} ${viewport.width}`);
    },
  );

  // Leave the site as the other stories expect it: the starting team published again.
  const current = await api<{ draft: { version: number } }>(page, 'GET', '/site-content/sections/team');
  const reset = await api<{ draft: { version: number } }>(page, 'PUT', '/site-content/sections/team/draft', {
    version: current.body.draft.version,
    document: SECTION_SEEDS.team,
  });
  expect(reset.status).toBe(200);
  expect(
    (await api(page, 'POST', '/site-content/sections/team/publish', { version: reset.body.draft.version })).status,
  ).toBe(200);
});

test('every section opens in its editor (lists in the record editors), axe-clean in the light and the dark theme, its history too', async ({
  page,
}) => {
  // Fifteen long forms, each checked by axe in both themes (switched in place): about 2 minutes on a shared machine.
  test.setTimeout(480_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Uche Editor', staffRole: 'editor' });
  const lists: Partial<Record<SectionKey, string>> = {
    facts: 'Key strengths',
    home: 'Slides',
    services: 'Services',
    process: 'Steps',
    projects: 'Projects',
    certificates: 'Certificates',
    contact: 'Offices',
  };
  for (const section of SECTION_KEYS) {
    await page.goto(`${PATHS.adminWebsite}/${section}`);
    await expect(page.getByRole('heading', { name: SECTION_TITLES[section], level: 1 })).toBeVisible();
    await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved/);
    const list = lists[section];
    if (list)
      await expect(
        draft(page)
          .getByRole('group', { name: new RegExp(`^${list}`) })
          .first(),
      ).toBeVisible();
    await expect(draft(page).getByText(/\(JSON\)/)).toHaveCount(0);
    // Decision 297: a list of a fixed length (three certificates) offers neither Add nor Remove; an open one does.
    if (section === 'certificates') {
      const certificates = draft(page).getByRole('group', { name: /^Certificates/ });
      await expect(
        certificates.getByText('The page shows exactly 3 certificates: change them in place.'),
      ).toBeVisible();
      await expect(certificates.getByRole('button', { name: /^(Add|Remove)\b/ })).toHaveCount(0);
      await expect(certificates.getByRole('button', { name: /^Move down: / }).first()).toBeVisible();
    }
    if (section === 'team') await expect(draft(page).getByRole('button', { name: 'Add team member' })).toBeVisible();
    // The six slides are placed by their theme: no Move buttons, which would only be refused at save.
    if (section === 'home')
      await expect(
        draft(page)
          .getByRole('group', { name: /^Slides/ })
          .getByRole('button', { name: /^Move (up|down): / }),
      ).toHaveCount(0);
    await expectNoAxeViolationsInBothThemes(page, `${section} editor`);
  }
  // The history with a revision's changes open (the side-by-side table).
  const history = page.locator('section[aria-labelledby="history-heading"]');
  await history
    .getByRole('listitem')
    .first()
    .getByRole('button', { name: /^Show changes/ })
    .click();
  await expect(history.getByRole('table')).toBeVisible();
  await expectNoAxeViolationsInBothThemes(
    page,
    'history with changes open',
    'section[aria-labelledby="history-heading"]',
  );
  // A list of texts inside a record: a service's key features, each its own input.
  await page.goto(`${PATHS.adminWebsite}/services`);
  const firstService = draft(page)
    .getByRole('group', { name: /^Services/ })
    .getByRole('listitem', { name: /^1\. / });
  await expect(
    firstService.getByRole('group', { name: 'Key features' }).getByLabel('Key feature 1', { exact: true }),
  ).not.toHaveValue('');
});
