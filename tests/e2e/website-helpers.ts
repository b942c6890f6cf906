import type { Browser, Locator, Page } from '@playwright/test';
import { SECTION_SEEDS } from '../../common/content/section-seeds.ts';
import type { SectionKey } from '../../common/content/sections.ts';
import { previewPath } from '../../common/site-content-context.ts';
import { expect } from './fixtures.ts';
import { api } from './portal-helpers.ts';

// The website editor's steps that several browser stories take (issue 24): the draft region, a save,
// a publish, a preview and its refusal to visitors, a file uploaded through the media picker, and
// putting a section back to its starting content so the specs after a story see the site as seeded.

/** The editor's draft form. */
export const draftRegion = (page: Page) => page.getByRole('region', { name: 'Draft' });

/** Waits for the autosave of the last change. */
export async function expectDraftSaved(page: Page) {
  await expect(draftRegion(page).getByRole('status')).toHaveText(/^Draft saved .+ \(version \d+\)$/);
}

/** Presses Publish in the open editor; answers the revision visitors now see and when the server answered. */
export async function publishInEditor(page: Page): Promise<{ revision: number; answeredAt: number }> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/site-content\/sections\/[^/]+\/publish$/.test(r.url())),
    page.getByRole('button', { name: 'Publish', exact: true }).click(),
  ]);
  const answeredAt = Date.now();
  expect(response.status()).toBe(200);
  const toast = page.getByRole('status').filter({ hasText: /Visitors now see revision \d+/ }).first();
  await expect(toast).toBeVisible();
  const revision = Number(/revision (\d+)/.exec((await toast.textContent()) ?? '')?.[1]);
  return { revision, answeredAt };
}

/** Opens the draft's preview (a new tab) from the editor and waits for its banner. */
export async function openPreview(page: Page): Promise<Page> {
  const [preview] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: /^Preview/ }).click()]);
  await preview.waitForLoadState();
  await expect(preview.getByRole('status').filter({ hasText: 'Preview — not published.' })).toBeVisible();
  return preview;
}

/** A visitor without a session is refused the section's preview (401), and the live page at `path` does not show `draftText`. */
export async function expectVisitorSeesNoDraft(browser: Browser, origin: string, section: SectionKey, path: string, draftText: string) {
  const visitor = await browser.newContext({ baseURL: origin });
  try {
    const page = await visitor.newPage();
    const refused = await page.goto(previewPath(section, path));
    expect(refused?.status()).toBe(401);
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByText(draftText)).toHaveCount(0);
    await expect(page.getByText('Preview — not published.')).toHaveCount(0);
  } finally {
    await visitor.close();
  }
}

/**
 * In the media picker that `open` opens (a field's Choose button), uploads `file` with its alt text
 * (a PDF's title); the picker chooses it and closes.
 */
export async function uploadThroughPicker(
  page: Page,
  open: Locator,
  file: { name: string; mimeType: string; buffer: Buffer },
  text: string,
  kind: 'image' | 'pdf' = 'image',
) {
  await open.click();
  const picker = page.getByRole('dialog', { name: kind === 'pdf' ? 'Choose a PDF' : 'Choose an image' });
  await expect(picker).toBeVisible();
  await picker.getByLabel(kind === 'pdf' ? 'PDF file' : 'Image file').setInputFiles(file);
  await picker.getByLabel(kind === 'pdf' ? 'Title (required)' : 'Alt text (required)').fill(text);
  await picker.getByRole('button', { name: 'Upload' }).click();
  await expect(picker).toBeHidden();
}

/** Publishes the section's starting content again (through the API), so the specs after a story see the site as seeded. */
export async function publishSeed(page: Page, section: SectionKey) {
  const current = await api<{ draft: { version: number } }>(page, 'GET', `/site-content/sections/${section}`);
  const saved = await api<{ draft: { version: number } }>(page, 'PUT', `/site-content/sections/${section}/draft`, {
    version: current.body.draft.version,
    document: SECTION_SEEDS[section],
  });
  expect(saved.status).toBe(200);
  const published = await api(page, 'POST', `/site-content/sections/${section}/publish`, { version: saved.body.draft.version });
  expect([200, 409]).toContain(published.status);
}
