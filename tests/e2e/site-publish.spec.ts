import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, expect, expectNoAxeViolations, screenshotEveryLook, signInAs, test } from './fixtures.ts';
import { publishSeedCompany } from './site-content-helpers.ts';

// Issue 24, decision 289: the public pages are rendered from the published content at runtime. An
// editor changes the company phone number and publishes it: /contact and the footer of / show it,
// with no build. A draft is previewed on its real page with a banner; a visitor signed out cannot
// open the preview and the live page keeps the published number.

const SHOTS = 'test-results/site-publish';
mkdirSync(SHOTS, { recursive: true });

const draft = (page: Page) => page.getByRole('region', { name: 'Draft' });

test('an editor publishes a new phone number and the pages show it; a draft is previewed with a banner, never to visitors', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await signInAs(page, { role: 'admin', name: 'Chidi Publisher', staffRole: 'editor' });
  const phone = `+234 803 444 ${String(Date.now()).slice(-4)}`;
  const draftPhone = `+234 706 111 ${String(Date.now()).slice(-4)}`;

  try {
    await page.goto(`${PATHS.adminWebsite}/company`);
    await expect(page.getByRole('heading', { name: 'Company profile', level: 1 })).toBeVisible();
    await draft(page).getByLabel('Phone', { exact: true }).fill(phone);
    await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved .+ \(version \d+\)$/);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: /Visitors now see revision \d+/ }).first()).toBeVisible();

    // The live pages, right after the publish: the page itself and the footer of another page.
    await page.goto(PATHS.contact);
    await expect(page.getByRole('main').getByRole('link', { name: phone })).toBeVisible();
    await page.goto(PATHS.home);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: phone })).toBeVisible();
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as { telephone?: string };
    expect(jsonLd.telephone).toBe(phone);

    // A draft, not published: the Preview link opens the real page with the draft and a banner.
    await page.goto(`${PATHS.adminWebsite}/company`);
    await draft(page).getByLabel('Phone', { exact: true }).fill(draftPhone);
    await expect(draft(page).getByRole('status')).toHaveText(/^Draft saved .+ \(version \d+\)$/);
    const [preview] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: /^Preview/ }).click()]);
    await preview.waitForLoadState();
    await expect(preview).toHaveURL(/\/preview\/company\?path=%2Fcontact$/);
    await expect(preview.getByRole('status').filter({ hasText: 'Preview — not published.' })).toBeVisible();
    await expect(preview.getByRole('main').getByRole('link', { name: draftPhone })).toBeVisible();
    await screenshotEveryLook(preview, 'preview-contact', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await expect(preview.getByRole('status').filter({ hasText: 'Preview — not published.' })).toBeVisible();
      await expectNoAxeViolations(preview, `preview ${theme} ${viewport.width}`);
    });
    await preview.close();

    // A visitor (no session) is refused the preview and sees the published number on the live page.
    const visitor = await browser.newContext({ baseURL: new URL(page.url()).origin });
    try {
      const visitorPage = await visitor.newPage();
      const refused = await visitorPage.goto(`/preview/company?path=${encodeURIComponent(PATHS.contact)}`);
      expect(refused?.status()).toBe(401);
      await visitorPage.goto(PATHS.contact);
      await expect(visitorPage.getByRole('main').getByRole('link', { name: phone })).toBeVisible();
      await expect(visitorPage.getByText(draftPhone)).toHaveCount(0);
      await expect(visitorPage.getByText('Preview — not published.')).toHaveCount(0);
      await expectNoAxeViolations(visitorPage, 'contact after the publish');
    } finally {
      await visitor.close();
    }
  } finally {
    await publishSeedCompany(page);
  }
});
