import sharp from 'sharp';
import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';

// Cookie-carrying writes must come from our own origin (the CSRF check); the browser adds it, API calls say it.
const ORIGIN = { origin: E2E_BASE_URL };

/** A JSON call with the page's session, as the browser would make it. */
export async function api<T = unknown>(page: Page, method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, data?: unknown): Promise<{ status: number; body: T }> {
  const res = await page.request.fetch(`/api${path}`, { method, data, headers: ORIGIN });
  return { status: res.status(), body: (await res.json().catch(() => null)) as T };
}

/** A progress report on `project` posted by the signed-in staff member, as the report form sends it. */
export function postReport(
  page: Page,
  project: { _id: string; code: string; name: string },
  date: string,
  fields: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>,
) {
  return page.request.post('/api/reports', {
    headers: ORIGIN,
    multipart: { date, projectId: project._id, projectCode: project.code, project: project.name, ...fields },
  });
}

/** A real image for uploads. */
export async function testImage(format: 'jpeg' | 'png' | 'webp', color: string, size = { width: 640, height: 480 }): Promise<Buffer> {
  const image = sharp({ create: { width: size.width, height: size.height, channels: 3, background: color } });
  return image[format]().toBuffer();
}

export { ORIGIN };

/**
 * In the open delete dialog of a client or project with history (issue 22): the first Delete is
 * refused with `refusal`, 'Delete with everything' waits for the typed name, then the toast counts
 * what went (`summary`) and the dialog closes.
 */
export async function deleteWithTypedName(page: Page, dialog: Locator, name: string, refusal: string, summary: string) {
  await dialog.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(dialog.getByRole('alert')).toContainText(refusal);
  const withEverything = dialog.getByRole('button', { name: 'Delete with everything' });
  await expect(withEverything).toBeDisabled();
  await dialog.getByLabel(/^Type .* to delete it/).fill(name);
  await withEverything.click();
  await expect(page.getByRole('status').filter({ hasText: summary })).toBeVisible();
  await expect(dialog).toBeHidden();
}
