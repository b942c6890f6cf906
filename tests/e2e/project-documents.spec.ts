import { mkdirSync } from 'node:fs';
import { samplePdf } from '../helpers/sample-files.ts';
import { PHONE, expect, expectNoAxeViolations, screenshotEveryLook, test } from './fixtures.ts';
import { LIVE, clientOnPhone, openStaffProject, stamp, staffWithClientProject, uploadDocument, uploadNewVersion } from './project-decision-steps.ts';

// Issue 25, documents (decision 292): staff upload a drawing and show it to the client; the client,
// on a phone, sees and previews it; staff upload rev B and the client's open page shows A superseded.

const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/project-documents-shots';
mkdirSync(SHOTS, { recursive: true });

test('staff upload a drawing, the client previews it, rev B supersedes rev A live', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const id = stamp();
  const { account, project } = await staffWithClientProject(
    page,
    { staff: `Tunde Staff ${id}`, client: `Niger Delta Ports ${id}` },
    { name: `Warri quay ${id}`, code: `PD-${id}`.toUpperCase() },
  );
  await openStaffProject(page, account._id, project._id);
  const staffRegister = page.getByRole('region', { name: 'Documents', exact: true });
  await expect(staffRegister.getByText('No documents yet')).toBeVisible();

  await test.step('staff upload rev A of a drawing and show it to the client', async () => {
    await staffRegister.getByRole('button', { name: 'Upload document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload a document' });
    // Nothing chosen: the form says what is missing and sends nothing.
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill('General arrangement');
    await dialog.getByLabel('Category').selectOption('drawing');
    await dialog.getByLabel('Version label').fill('Rev A');
    await dialog.getByLabel('Show to the client').check();
    await dialog.locator('input[type=file]').setInputFiles({ name: 'ga-rev-a.pdf', mimeType: 'application/pdf', buffer: samplePdf('General arrangement rev A') });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Document uploaded')).toBeVisible();
    const card = staffRegister.getByRole('article', { name: /General arrangement/ });
    await expect(card).toContainText('Current: Rev A');
    await expect(card).toContainText('Shown to the client');
    await expect(staffRegister.getByRole('heading', { name: 'Drawings' })).toBeVisible();
  });

  const { context: clientContext, client } = await clientOnPhone(browser, account, project._id);
  const clientRegister = client.getByRole('region', { name: 'Documents', exact: true });
  const clientCard = clientRegister.getByRole('article', { name: /General arrangement/ });

  await test.step('the client, at 390 px, sees the drawing and previews it in the browser', async () => {
    await expect(clientCard).toContainText('Current: Rev A');
    // Clients read; they neither upload nor change visibility.
    await expect(clientRegister.getByRole('button')).toHaveCount(0);
    const preview = clientCard.getByRole('link', { name: 'Preview General arrangement, Rev A (new tab)' });
    const href = await preview.getAttribute('href');
    const res = await client.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    expect(res.headers()['content-disposition']).toMatch(/^inline; filename="ga-rev-a.pdf"/);
    expect((await res.body()).subarray(0, 5).toString()).toBe('%PDF-');
    const download = await client.request.get(`${href}?download=1`);
    expect(download.headers()['content-disposition']).toMatch(/^attachment;/);
    await client.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  });

  await test.step('staff upload rev B; the open client page shows it current and rev A superseded, without a reload', async () => {
    await uploadNewVersion(page, staffRegister, 'General arrangement', 'Rev B', 'ga-rev-b.pdf');

    await expect(clientCard).toContainText('Current: Rev B', LIVE);
    expect(await client.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await clientCard.getByText('Earlier versions (1)').click();
    const earlier = clientCard.getByRole('listitem').filter({ hasText: 'Rev A' });
    await expect(earlier).toContainText('Superseded');
    await expect(earlier.getByRole('link', { name: 'Download General arrangement, Rev A' })).toBeVisible();
  });

  await test.step('a hidden document never reaches the client', async () => {
    const hidden = await uploadDocument(page, staffRegister, { title: 'Internal cost plan', category: 'other', fileName: 'costs.pdf' });
    await expect(hidden).toContainText('Staff only');
    await client.reload();
    await expect(clientCard).toContainText('Current: Rev B');
    await expect(clientRegister.getByText('Internal cost plan')).toHaveCount(0);
  });

  await test.step('both registers are axe-clean in light and dark, at phone and desktop width', async () => {
    await clientCard.getByText('Earlier versions (1)').click();
    await screenshotEveryLook(client, 'client-documents', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await expect(clientCard).toBeVisible();
      await expectNoAxeViolations(client, `client documents ${theme} ${viewport.width}`);
    });
    await screenshotEveryLook(page, 'staff-documents', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      // At phone width the admin dashboard shows one column at a time (the lists first).
      if (viewport.width > PHONE.width) await expect(staffRegister).toBeVisible();
      await expectNoAxeViolations(page, `staff documents ${theme} ${viewport.width}`);
    });
    await clientRegister.screenshot({ path: `${SHOTS}/client-register-390.png` });
  });
  await clientContext.close();
});
