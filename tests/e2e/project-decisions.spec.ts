import { mkdirSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { pdfText } from '../helpers/pdf-text.ts';
import { PHONE, expect, expectNoAxeViolations, screenshotEveryLook, test } from './fixtures.ts';
import { LIVE, askForApproval, clientOnPhone, draftChangeOrder, openStaffProject, stamp, staffWithClientProject, uploadDocument, uploadNewVersion } from './project-decision-steps.ts';

// Issue 25's combined story, staff and client side by side (the client on a 390 px phone): a
// drawing's rev A is approved, rev B supersedes it and is rejected with a comment, a change order of
// +₦4,500,000.50 and +21 days is approved and moves the contract sum and end date on both sides,
// and both certificates download as PDFs. Axe-clean on both sides in light and dark.

const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/project-decisions-shots';
mkdirSync(SHOTS, { recursive: true });

/** Fetches a download link's target with the page's session: a PDF, its text. */
async function pdfBehind(page: Page, link: Locator): Promise<string> {
  const href = await link.getAttribute('href');
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/pdf');
  const body = await res.body();
  expect(body.subarray(0, 5).toString()).toBe('%PDF-');
  return (await pdfText(body)).replace(/\n/g, ' ');
}

test('a drawing approved, its next revision rejected, a change order approved: both sides, both certificates', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const id = stamp();
  const { account, project } = await staffWithClientProject(
    page,
    { staff: `Bola Staff ${id}`, client: `Bonny Terminals ${id}` },
    { name: `Bonny jetty ${id}`, code: `DS-${id}`.toUpperCase(), budget: '120,000,000.25', startDate: '2026-01-05', endDate: '2026-12-31' },
  );
  await openStaffProject(page, account._id, project._id);
  const staffRegister = page.getByRole('region', { name: 'Documents', exact: true });
  const staffApprovals = page.getByRole('region', { name: 'Approvals' });
  const staffChanges = page.locator('#change-orders');

  const { context, client } = await clientOnPhone(browser, account, project._id);
  const clientRegister = client.getByRole('region', { name: 'Documents', exact: true });
  const clientApprovals = client.getByRole('region', { name: 'Approvals' });
  const clientChanges = client.locator('#change-orders');
  const clientRequest = (rev: string) => clientApprovals.getByRole('listitem').filter({ hasText: rev });
  const staffRequest = (rev: string) => staffApprovals.getByRole('listitem').filter({ hasText: rev });

  await test.step('staff upload drawing rev A, shown to the client, and ask for its approval', async () => {
    const card = await uploadDocument(page, staffRegister, { title: 'Jetty general arrangement', category: 'drawing', label: 'Rev A', fileName: 'jetty-ga-rev-a.pdf', showToClient: true });
    await expect(card).toContainText('Current: Rev A');
    await askForApproval(page, staffApprovals, 'Document: Jetty general arrangement, Rev A', 'Please approve the pile layout.');
    await expect(staffRequest('Rev A')).toContainText('Waiting for the client');
  });

  await test.step('the client, at 390 px, sees the drawing and approves rev A; staff see it live', async () => {
    await expect(clientRegister.getByRole('article', { name: /Jetty general arrangement/ })).toContainText('Current: Rev A', LIVE);
    const request = clientRequest('Rev A');
    await expect(request).toContainText('Please approve the pile layout.', LIVE);
    await request.getByRole('button', { name: 'Approve' }).click();
    await expect(request).toContainText('Approved');
    await expect(staffRequest('Rev A')).toContainText('Approved', LIVE);
  });

  await test.step('staff upload rev B, which supersedes rev A, and ask for its approval', async () => {
    await uploadNewVersion(page, staffRegister, 'Jetty general arrangement', 'Rev B', 'jetty-ga-rev-b.pdf');
    const clientCard = clientRegister.getByRole('article', { name: /Jetty general arrangement/ });
    await expect(clientCard).toContainText('Current: Rev B', LIVE);
    await clientCard.getByText('Earlier versions (1)').click();
    await expect(clientCard.getByRole('listitem').filter({ hasText: 'Rev A' })).toContainText('Superseded');
    await askForApproval(page, staffApprovals, 'Document: Jetty general arrangement, Rev B', 'Rev B moves the fender line 600 mm.');
    await expect(staffRequest('Rev B')).toContainText('Waiting for the client');
  });

  await test.step('the client rejects rev B with a comment; staff read it live', async () => {
    const request = clientRequest('Rev B');
    await expect(request).toContainText('Rev B moves the fender line', LIVE);
    await request.getByRole('button', { name: 'Reject' }).click();
    await expect(request.getByText('Say why you reject it: a comment is required')).toBeVisible();
    await request.getByLabel('Comment (required to reject)').fill('The fender line clashes with the mooring dolphins.');
    await request.getByRole('button', { name: 'Reject' }).click();
    await expect(request).toContainText('Rejected');
    await expect(staffRequest('Rev B')).toContainText('Rejected', LIVE);
    await expect(staffRequest('Rev B')).toContainText('The fender line clashes with the mooring dolphins.');
  });

  await test.step('staff draft a change order of +₦4,500,000.50 and +21 days and send it', async () => {
    await expect(staffChanges.getByTestId('current-sum')).toHaveText('₦120,000,000.25');
    const card = await draftChangeOrder(staffChanges, {
      title: 'Move the fender line',
      description: 'Fender line moved 600 mm seaward, two more piles.',
      cost: '4,500,000.50',
      scheduleDays: '21',
    });
    await expect(card).toContainText('+₦4,500,000.50');
    await expect(card).toContainText('+21 days');
    await card.getByRole('button', { name: 'Send CO-001 to the client' }).click();
    await expect(card).toContainText('Waiting for the client');
  });

  await test.step('the client approves it; both sides see the sum and end date change, with the history', async () => {
    const card = clientChanges.getByRole('article', { name: 'CO-001: Move the fender line' });
    await expect(card).toContainText('+₦4,500,000.50', LIVE);
    await card.getByRole('button', { name: 'Approve CO-001' }).click();
    await expect(card).toContainText('Approved by');
    for (const [side, panel] of [['client', clientChanges], ['staff', staffChanges]] as const) {
      await expect(panel.getByTestId('current-sum'), side).toHaveText('₦124,500,000.75', LIVE);
      await expect(panel.getByTestId('current-end-date'), side).toHaveText('21 Jan 2027');
      const history = panel.getByTestId('contract-history');
      await expect(history).toContainText('Original sum');
      await expect(history).toContainText('₦120,000,000.25');
      await expect(history).toContainText('CO-001, approved');
    }
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  await test.step('the approval certificates and the change order certificate download as PDFs, on both sides', async () => {
    const [download] = await Promise.all([client.waitForEvent('download'), clientRequest('Rev A').getByRole('link', { name: /Download the certificate/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^approval-approved-.*\.pdf$/);
    const approvalA = await pdfBehind(page, staffRequest('Rev A').getByRole('link', { name: /Download the certificate/ }));
    for (const fact of ['Approval certificate', 'Jetty general arrangement', 'Rev A', 'APPROVED', account.name]) expect(approvalA).toContain(fact);
    const approvalB = await pdfBehind(client, clientRequest('Rev B').getByRole('link', { name: /Download the certificate/ }));
    for (const fact of ['Rev B', 'REJECTED', 'The fender line clashes with the mooring dolphins.']) expect(approvalB).toContain(fact);

    const clientLink = clientChanges.getByRole('link', { name: 'Certificate (PDF) of CO-001' });
    const [coDownload] = await Promise.all([client.waitForEvent('download'), clientLink.click()]);
    expect(coDownload.suggestedFilename()).toBe('change-order-CO-001-approved.pdf');
    for (const [who, link] of [[client, clientLink], [page, staffChanges.getByRole('link', { name: 'Certificate (PDF) of CO-001' })]] as const) {
      const text = await pdfBehind(who, link);
      for (const fact of ['Change order certificate', 'CO-001: Move the fender line', '+₦4,500,000.50', '+21 days', '₦120,000,000.25 before, ₦124,500,000.75 after', '31 Dec 2026 before, 21 Jan 2027 after', 'APPROVED', account.name]) {
        expect(text).toContain(fact);
      }
    }
  });

  await test.step('both sides are axe-clean in light and dark', async () => {
    await screenshotEveryLook(client, 'client-decisions', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await expect(clientChanges.getByTestId('current-sum')).toBeVisible();
      await expectNoAxeViolations(client, `client decisions ${theme} ${viewport.width}`);
    });
    await client.setViewportSize(PHONE);
    await screenshotEveryLook(page, 'staff-decisions', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      if (viewport.width > PHONE.width) await expect(staffChanges.getByTestId('current-sum')).toBeVisible();
      await expectNoAxeViolations(page, `staff decisions ${theme} ${viewport.width}`);
    });
  });
  await context.close();
});
