import { mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { PATHS } from '../../common/paths.ts';
import { photoLike } from '../helpers/media.ts';
import { samplePdf } from '../helpers/sample-files.ts';
import { createUserViaApi, expect, expectNoAxeViolationsInBothThemes, screenshotEveryLook, signInAs, test } from './fixtures.ts';

// Issue 24's media library: an editor (content.write, not an owner) uploads a photograph with its
// alt text, sees it in the grid, its renditions answer, sets a focal point, and deletes it.

const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/media-shots';
mkdirSync(SHOTS, { recursive: true });
const shot = (file: string) => `${SHOTS}/${file}`;

test('an editor uploads a photo with alt text, sees its sizes served, sets its focal point and deletes it', async ({ page }) => {
  test.setTimeout(240_000);
  const editor = await createUserViaApi(page.request, { role: 'admin', name: 'Efe Editor', staffRole: 'editor' });
  await signInAs(page, { role: 'admin', account: editor });
  await page.goto(PATHS.adminMedia);
  await expect(page.getByRole('heading', { name: 'Media', level: 1 })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Admin' });
  await expect(nav.locator('[aria-current="page"]')).toHaveAccessibleName(/^Media/);
  await expect(page.getByText('No images yet')).toBeVisible();
  await expectNoAxeViolationsInBothThemes(page, 'empty library');

  // Without alt text nothing is sent: the field says why.
  const photo = await photoLike(1600, 1067);
  await page.getByLabel('Image or PDF file').setInputFiles({ name: 'jetty-dawn.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Describe the image for people who cannot see it (alt text)')).toBeVisible();
  await expect(page.getByLabel('Alt text (required)')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Alt text (required)').fill('Crane lifting a steel beam onto the new jetty at dawn');
  await page.getByRole('button', { name: 'Upload' }).click();
  const card = page.getByRole('listitem').filter({ hasText: 'Crane lifting a steel beam' });
  await expect(card).toBeVisible();
  await expect(card.getByText('Not used on any page yet')).toBeVisible();
  await expect(card.getByText('1600 × 1067 px')).toBeVisible();
  const img = card.getByRole('img', { name: 'Crane lifting a steel beam onto the new jetty at dawn' });
  await expect(img).toHaveAttribute('width', '1600');
  await expect(img).toHaveAttribute('height', '1067');
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

  // Every rendition named in the srcsets answers with its type, long cached, at its width.
  const srcsets = await card.locator('source').evaluateAll((els) => els.map((e) => [e.getAttribute('type'), e.getAttribute('srcset')] as const));
  expect(srcsets.map(([type]) => type)).toEqual(['image/avif', 'image/webp']);
  for (const [type, srcset] of srcsets) {
    const candidates = srcset!.split(', ').map((c) => c.split(' ') as [string, string]);
    expect(candidates.map(([, w]) => w)).toEqual(['320w', '640w', '960w', '1280w', '1600w']);
    for (const [url, w] of candidates) {
      const res = await page.request.get(url);
      expect(res.status(), url).toBe(200);
      expect(res.headers()['content-type']).toBe(type);
      expect(res.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await sharp(await res.body()).metadata()).width).toBe(Number.parseInt(w, 10));
    }
  }
  await expectNoAxeViolationsInBothThemes(page, 'library with an image');
  await screenshotEveryLook(page, 'media-grid', shot);

  // The focal point: a click on the picture, then exact numbers by keyboard.
  await card.getByRole('button', { name: /^Edit/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit image' });
  await expect(dialog).toBeVisible();
  const picture = dialog.getByRole('img');
  await expect.poll(() => picture.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  const box = (await picture.boundingBox())!;
  await picture.click({ position: { x: box.width * 0.2, y: box.height * 0.7 } });
  await expect(dialog.getByLabel('From the left (%)')).toHaveValue('20');
  await expect(dialog.getByLabel('From the top (%)')).toHaveValue('70');
  await dialog.getByLabel('From the top (%)').fill('');
  await page.keyboard.type('65');
  await expect(dialog.getByLabel('From the top (%)')).toHaveValue('65');
  await expectNoAxeViolationsInBothThemes(page, 'edit dialog');
  await screenshotEveryLook(page, 'media-edit', shot);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByRole('img')).toHaveCSS('object-position', '20% 65%');
  const saved = (await (await page.request.get('/api/media')).json()).items[0];
  expect([saved.focalX, saved.focalY]).toEqual([0.2, 0.65]);

  // Delete, confirmed.
  await card.getByRole('button', { name: /^Delete/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this image?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No images yet')).toBeVisible();
  const gone = await page.request.get(srcsets[0]![1]!.split(' ')[0]!);
  expect(gone.status()).toBe(404);

  // A PDF (decision 295): kept as uploaded, listed with its icon and label, downloaded as itself.
  await page.getByLabel('Image or PDF file').setInputFiles({ name: 'iso-9001.pdf', mimeType: 'application/pdf', buffer: samplePdf('ISO 9001 certificate') });
  await page.getByLabel('Alt text (required)').fill('ISO 9001 certificate, 2024');
  await page.getByRole('button', { name: 'Upload' }).click();
  const pdfCard = page.getByRole('listitem').filter({ hasText: 'ISO 9001 certificate, 2024' });
  await expect(pdfCard.getByText('PDF', { exact: true }).first()).toBeVisible();
  const pdfLink = pdfCard.getByRole('link', { name: 'PDF', exact: true });
  const served = await page.request.get((await pdfLink.getAttribute('href'))!);
  expect(served.headers()['content-type']).toBe('application/pdf');
  expect(served.headers()['content-disposition']).toMatch(/^attachment; filename="iso-9001\.pdf"/);
  await expectNoAxeViolationsInBothThemes(page, 'library with a PDF');
  await screenshotEveryLook(page, 'media-grid-pdf', shot);
  await pdfCard.getByRole('button', { name: /^Delete/ }).click();
  await page.getByRole('dialog', { name: 'Delete this PDF?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No images yet')).toBeVisible();
});
