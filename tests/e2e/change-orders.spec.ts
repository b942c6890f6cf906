import { mkdirSync, readFileSync } from 'node:fs';
import { samplePdf } from '../helpers/sample-files.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, screenshotEveryLook, test } from './fixtures.ts';
import { LIVE, clientOnPhone, openStaffProject, stamp, staffWithClientProject } from './project-decision-steps.ts';

// Issue 25, decision 294: staff draft a change order of +₦4,500,000.50 and +21 days and send it; the
// client approves it on a 390 px phone (and downloads the sketch attached to the draft, decision 296); both sides then read the new contract sum and end date with
// their history. Axe-clean in the light and dark themes.

const SHOTS = process.env.PORTAL_SHOTS_DIR ?? '/tmp/change-orders-shots';
mkdirSync(SHOTS, { recursive: true });

test('staff draft and send a change order; the client approves it at 390 px; both see the new sum, end date and history', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const id = stamp();
  const { account, project } = await staffWithClientProject(
    page,
    { staff: `Kemi Staff ${id}`, client: `Delta Haulage ${id}` },
    { name: `Onne quay wall ${id}`, code: `CO-${id}`.toUpperCase(), budget: '120,000,000.25', startDate: '2026-01-05', endDate: '2026-12-31' },
  );
  await openStaffProject(page, account._id, project._id);
  const staffPanel = page.locator('#change-orders');

  await test.step('staff see the empty history, then draft the change order', async () => {
    await expect(staffPanel.getByText('No change orders')).toBeVisible();
    await expect(staffPanel.getByTestId('current-sum')).toHaveText('₦120,000,000.25');
    await staffPanel.getByText('New change order').click();
    const form = staffPanel.getByRole('form', { name: 'New change order' });
    await form.getByLabel('Title').fill('Extra piles at the quay head');
    await form.getByLabel('What changes').fill('Four more piles, 18 m each, after the soil report.');
    await form.getByLabel(/Cost impact/).fill('4,500,000.505');
    await form.getByLabel('Schedule impact (days)').fill('21');
    await form.getByRole('button', { name: 'Save draft' }).click();
    // More than two decimals is refused with its reason, and nothing is stored.
    await expect(form.getByRole('alert')).toContainText('two decimals');
    await form.getByLabel(/Cost impact/).fill('4,500,000.50');
    await form.getByRole('button', { name: 'Save draft' }).click();
    const card = staffPanel.getByRole('article', { name: 'CO-001: Extra piles at the quay head' });
    await expect(card).toContainText('+₦4,500,000.50');
    await expect(card).toContainText('+21 days');
    await expect(card).toContainText('Draft');
    // A sketch attached to the draft (decision 296): listed with its size and a Remove button naming it.
    await card.getByLabel(/Attach files/).setInputFiles({ name: 'quay-sketch.pdf', mimeType: 'application/pdf', buffer: samplePdf('Quay head piles') });
    await expect(card.getByRole('link', { name: 'quay-sketch.pdf' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Remove quay-sketch.pdf' })).toBeVisible();
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await card.screenshot({ path: `${SHOTS}/admin-draft-attachments-390.png` });
    await page.setViewportSize(DESKTOP);
    await expectNoAxeViolations(page, 'admin change orders with a draft', '#change-orders');
    await card.getByRole('button', { name: 'Send CO-001 to the client' }).click();
    await expect(card).toContainText('Waiting for the client');
  });

  const { context: clientContext, client } = await clientOnPhone(browser, account, project._id);
  const clientPanel = client.locator('#change-orders');

  await test.step('the client approves it on a 390 px phone', async () => {
    const card = clientPanel.getByRole('article', { name: 'CO-001: Extra piles at the quay head' });
    await expect(card).toContainText('+₦4,500,000.50');
    const [download] = await Promise.all([client.waitForEvent('download'), card.getByRole('link', { name: 'quay-sketch.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('quay-sketch.pdf');
    expect(readFileSync(await download.path()).equals(samplePdf('Quay head piles'))).toBe(true);
    // Declining needs a reason.
    await card.getByRole('button', { name: 'Decline CO-001' }).click();
    await expect(card.getByRole('alert')).toContainText('Say why you decline it');
    await expectNoAxeViolations(client, 'client change order waiting, phone', '#change-orders');
    await card.getByLabel('Comment (required to decline)').fill('Agreed on site.');
    await card.getByRole('button', { name: 'Approve CO-001' }).click();
    await expect(card).toContainText('Approved by');
    await expect(card.getByRole('button', { name: 'Approve CO-001' })).toHaveCount(0);
    await expect(clientPanel.getByTestId('current-sum')).toHaveText('₦124,500,000.75');
    await expect(clientPanel.getByTestId('current-end-date')).toHaveText('21 Jan 2027');
    const history = clientPanel.getByTestId('contract-history');
    await expect(history).toContainText('Original sum');
    await expect(history).toContainText('₦120,000,000.25');
    await expect(history).toContainText('CO-001, approved');
    // The whole row fits the phone: nothing scrolls sideways.
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  await test.step('staff see the decision live, with the new sum, end date and history', async () => {
    await expect(staffPanel.getByRole('article', { name: 'CO-001: Extra piles at the quay head' })).toContainText('Approved by', LIVE);
    await expect(staffPanel.getByTestId('current-sum')).toHaveText('₦124,500,000.75');
    await expect(staffPanel.getByTestId('current-end-date')).toHaveText('21 Jan 2027');
    await expect(page.getByText('₦124,500,000.75').first()).toBeVisible();
  });

  await test.step('both sides are axe-clean in the light and dark themes', async () => {
    for (const [who, name] of [[page, 'admin'], [client, 'client']] as const) {
      await screenshotEveryLook(who, `change-orders-${name}`, (f) => `${SHOTS}/${f}`, async () => {
        await expect(who.locator('#change-orders').getByTestId('current-sum')).toBeVisible();
        await expectNoAxeViolations(who, `${name} change orders`, '#change-orders');
      });
    }
    await client.setViewportSize(PHONE);
    await client.locator('#change-orders').screenshot({ path: `${SHOTS}/client-change-orders-390.png` });
    await page.setViewportSize(DESKTOP);
    await page.locator('#change-orders').screenshot({ path: `${SHOTS}/admin-change-orders-1280.png` });
  });
  await clientContext.close();
});
