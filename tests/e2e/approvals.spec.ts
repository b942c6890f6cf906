import { mkdirSync } from 'node:fs';
import { pdfText } from '../helpers/pdf-text.ts';
import { expect, expectNoAxeViolations, PHONE, screenshotEveryLook, test } from './fixtures.ts';
import { postReport } from './portal-helpers.ts';
import { LIVE, clientOnPhone, inDays, openStaffProject, stamp, staffWithClientProject } from './project-decision-steps.ts';

// Issue 25, approvals (decision 293): staff ask the client to approve a progress report; the client
// approves on a 390 px phone from 'Waiting on you'; staff see the decision live; both download the
// certificate, a real PDF with the decision's facts.

const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/approvals-shots';
mkdirSync(SHOTS, { recursive: true });

test('staff ask for approval of a report, the client approves it at 390 px, the certificate downloads', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const id = stamp();
  const { account, project } = await staffWithClientProject(
    page,
    { staff: `Tunde Staff ${id}`, client: `Lekki Estates ${id}` },
    { name: `Lekki drainage ${id}`, code: `AP-${id}`.toUpperCase() },
  );
  const report = await postReport(page, project, '2026-11-20', { tasks: 'Culvert excavation', progress: 'Two culverts cast' });
  expect(report.status()).toBe(201);

  await openStaffProject(page, account._id, project._id);
  const staffApprovals = page.getByRole('region', { name: 'Approvals' });
  await expect(staffApprovals.getByText('No approvals yet')).toBeVisible();

  await test.step('staff ask the client to approve the report, by a due date, with a note', async () => {
    await staffApprovals.getByRole('button', { name: 'Ask for approval' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ask for approval' });
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(dialog.getByText('Choose what to approve')).toBeVisible();
    await dialog.getByLabel('What to approve').selectOption({ label: 'Progress report of 2026-11-20 (version 1)' });
    await dialog.getByLabel('Due date').fill(inDays(7));
    await dialog.getByLabel('Note to the client').fill('Please confirm the culvert positions.');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await expect(dialog).toBeHidden();
    await expect(staffApprovals.getByRole('listitem')).toContainText('Waiting for the client');
    await expect(page.getByRole('region', { name: /Waiting on you/ })).toContainText('Waiting for the client');
  });

  const { context: clientContext, client } = await clientOnPhone(browser, account);
  const waiting = client.getByRole('region', { name: /Waiting on you/ });
  const clientApprovals = client.getByRole('region', { name: 'Approvals' });

  await test.step('the client, at 390 px, finds it waiting and reviews it', async () => {
    await expect(waiting).toContainText('Progress report of 20 Nov 2026');
    await expect(waiting).toContainText('Your approval is requested');
    await waiting.getByRole('button', { name: /^Review/ }).click();
    await expect(clientApprovals.getByRole('listitem')).toContainText('Please confirm the culvert positions.');
    // A rejection needs a comment: nothing is sent without one.
    await clientApprovals.getByRole('button', { name: 'Reject' }).click();
    await expect(clientApprovals.getByText('Say why you reject it: a comment is required')).toBeVisible();
    await expect(clientApprovals.getByRole('listitem')).toContainText('Waiting for the client');
  });

  await test.step('axe-clean in light and dark, at phone and desktop width, before the decision', async () => {
    await screenshotEveryLook(client, 'client-approval', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await expect(clientApprovals).toBeVisible();
      await expectNoAxeViolations(client, `client approvals ${theme} ${viewport.width}`);
    });
    await client.setViewportSize(PHONE);
    await screenshotEveryLook(page, 'staff-approval', (f) => `${SHOTS}/${f}`, async ({ theme, viewport }) => {
      await expect(staffApprovals).toBeVisible();
      await expectNoAxeViolations(page, `staff approvals ${theme} ${viewport.width}`);
    });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await test.step('the client approves; the staff page shows it live', async () => {
    await clientApprovals.getByLabel('Comment (required to reject)').fill('Positions agreed.');
    await clientApprovals.getByRole('button', { name: 'Approve' }).click();
    await expect(clientApprovals.getByRole('listitem')).toContainText('Approved');
    await expect(waiting).toBeHidden();
    await clientApprovals.screenshot({ path: `${SHOTS}/client-approved-390.png` });
    await expect(staffApprovals.getByRole('listitem')).toContainText('Approved', LIVE);
    await expect(staffApprovals.getByRole('listitem')).toContainText('Positions agreed.');
  });

  await test.step('the certificate downloads on both sides: a PDF naming the decision, who, where and the hash', async () => {
    const clientLink = clientApprovals.getByRole('link', { name: /Download the certificate/ });
    const [download] = await Promise.all([client.waitForEvent('download'), clientLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^approval-approved-.*\.pdf$/);
    const href = await staffApprovals.getByRole('link', { name: /Download the certificate/ }).getAttribute('href');
    const res = await page.request.get(href!);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    const text = (await pdfText(await res.body())).replace(/\n/g, ' ');
    for (const fact of ['Approval certificate', project.name, 'Progress report of 20 Nov 2026', 'APPROVED', account.name, 'Positions agreed.']) expect(text).toContain(fact);
    expect(text).toMatch(/[0-9a-f]{64}/);
  });
  await clientContext.close();
});
