import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { LOOKS, expect, expectNoAxeViolationsInBothThemes, test } from './fixtures.ts';
import { api } from './portal-helpers.ts';
import { LIVE, clientOnPhone, openStaffProject, stamp, staffWithClientProject } from './project-decision-steps.ts';

// Issue 26, decision 298: staff set the finance settings, build a payment plan of three milestones
// (30/40/30 % of ₦10,000,000.00) in the panel, raise and issue the first invoice; the client reads it
// with the bank details on a phone; staff record half of it as a transfer and the client's outstanding
// follows live; the client pays the rest through Paystack's hosted checkout (the local stand-in of
// tests/e2e/paystack-global-setup.ts, which sends the signed webhook) and both sides reach zero live. Axe-clean in both themes; the panel photographed at 390 and 1280 px, light and dark.

const SHOTS = process.env.FINANCE_SHOTS_DIR ?? '/tmp/finance-shots';
mkdirSync(SHOTS, { recursive: true });

async function shootPanel(page: Page, side: string) {
  for (const { theme, viewport } of LOOKS) {
    await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
    await page.setViewportSize(viewport);
    await page.locator('#invoices').screenshot({ path: `${SHOTS}/${side}-${theme}-${viewport.width}.png` });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

test('staff plan three milestones and issue the first invoice; the client pays half by transfer and the rest online, and both sides see the balance reach zero live', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const id = stamp();
  const { account, project } = await staffWithClientProject(
    page,
    { staff: `Ada Finance ${id}`, client: `Lekki Marine ${id}` },
    { name: `Lekki jetty ${id}`, code: `FN-${id}`.toUpperCase(), budget: '10,000,000', startDate: '2026-01-05', endDate: '2026-12-31' },
  );
  const settings = await api(page, 'PUT', '/finance/settings', {
    invoicePrefix: 'INV',
    creditNotePrefix: 'CN',
    vatRate: '7.5',
    paymentTermsDays: 14,
    taxId: '12345678-0001',
    bankName: 'Harbour Trust Bank',
    bankAccountName: 'Tolu Engineering Ltd',
    bankAccountNumber: '1012345678',
  });
  expect(settings.status).toBe(200);
  await openStaffProject(page, account._id, project._id);
  const staffPanel = page.locator('#invoices');
  await expect(page.getByRole('heading', { name: 'Payment plan and invoices' })).toBeVisible();

  await test.step('staff build a plan of three milestones in the panel', async () => {
    await expect(staffPanel.getByText('No payment plan yet')).toBeVisible();
    await expect(staffPanel.getByText('No invoices yet')).toBeVisible();
    await expect(staffPanel.getByTestId('finance-contract-sum')).toHaveText('₦10,000,000.00');
    await staffPanel.getByRole('button', { name: 'Edit plan' }).click();
    const form = staffPanel.getByRole('form', { name: 'Edit payment plan' });
    const plan = [
      ['Mobilisation', '30'],
      ['Piling and deck', '40'],
      ['Handover', ''],
    ] as const;
    for (const [i, [name, share]] of plan.entries()) {
      if (i > 0) await form.getByRole('button', { name: 'Add milestone' }).click();
      const group = form.getByRole('group', { name: `Milestone ${i + 1}` });
      await group.getByLabel('Name').fill(name);
      await group.getByLabel('Share (%)').fill(share);
    }
    await form.getByRole('button', { name: 'Save plan' }).click();
    // The server's field message lands on the third milestone's share.
    const third = form.getByRole('group', { name: 'Milestone 3' });
    await expect(third.getByLabel('Share (%)')).toHaveAttribute('aria-invalid', 'true');
    await expect(third).toContainText('Enter a share');
    await third.getByLabel('Share (%)').fill('30');
    await form.getByRole('button', { name: 'Save plan' }).click();
    await expect(staffPanel.getByTestId('milestone')).toHaveCount(3);
    await expect(staffPanel.getByTestId('milestone').first()).toContainText('30 %');
    await expect(staffPanel.getByTestId('milestone').first()).toContainText('₦3,000,000.00');
    await expect(staffPanel.getByTestId('finance-planned')).toHaveText('₦10,000,000.00');
    await expect(staffPanel.getByTestId('plan-warning')).toHaveCount(0);
  });

  let invoiceNumber = '';
  let invoiceElementId = '';
  await test.step('staff raise the first invoice and issue it', async () => {
    await staffPanel.getByRole('button', { name: 'Raise invoice for Mobilisation' }).click();
    const draft = staffPanel.getByRole('article', { name: 'Draft invoice (Mobilisation)' });
    await expect(draft).toContainText('Draft');
    await expect(draft).toContainText('₦3,225,000.00');
    await expectNoAxeViolationsInBothThemes(page, 'staff finance with a draft', '#invoices');
    await draft.getByRole('button', { name: 'Issue Draft invoice (Mobilisation)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Issue Draft invoice (Mobilisation)?' });
    await expect(dialog).toContainText('numbered, frozen and e-mailed to the client');
    await dialog.getByRole('button', { name: 'Issue invoice' }).click();
    const issued = staffPanel.getByRole('article', { name: /^Invoice INV-/ });
    await expect(issued).toBeVisible();
    await expect(issued).toContainText('Due');
    invoiceNumber = ((await issued.getByRole('heading').first().textContent()) ?? '').replace(/^Invoice /, '').split(':')[0]!.trim();
    invoiceElementId = (await issued.getAttribute('id')) ?? '';
    await expect(issued.getByRole('link', { name: `Download invoice ${invoiceNumber} (PDF)` })).toBeVisible();
  });

  const { context: clientContext, client } = await clientOnPhone(browser, account, project._id);
  const clientPanel = client.locator('#invoices');

  await test.step('the client sees the issued invoice with the bank details on a phone', async () => {
    const invoice = clientPanel.getByRole('article', { name: new RegExp(`^Invoice ${invoiceNumber}`) });
    await expect(invoice).toContainText('₦3,225,000.00');
    await expect(invoice.getByTestId('bank-details')).toContainText('Harbour Trust Bank');
    await expect(invoice.getByTestId('bank-details')).toContainText('Tolu Engineering Ltd');
    await expect(invoice.getByTestId('bank-details')).toContainText('1012345678');
    await expect(invoice).toContainText(`Quote ${invoiceNumber} as the reference`);
    await expect(clientPanel.getByRole('button', { name: /Edit plan|Raise invoice|Record payment/ })).toHaveCount(0);
    expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The mails link to the invoice itself: the page opens on it.
    await client.goto(`${PATHS.clientDashboard}?project=${project._id}#${invoiceElementId}`);
    await expect(client.locator(`#${invoiceElementId}`)).toBeFocused();
    await expectNoAxeViolationsInBothThemes(client, 'client finance', '#invoices');
  });

  await test.step('staff record half as a transfer; the client sees the new outstanding live', async () => {
    const issued = staffPanel.getByRole('article', { name: new RegExp(`^Invoice ${invoiceNumber}`) });
    await issued.getByRole('button', { name: `Record payment on ${invoiceNumber}` }).click();
    const dialog = page.getByRole('dialog', { name: `Record payment on ${invoiceNumber}` });
    // More than the outstanding amount is refused at the amount.
    await dialog.getByLabel('Amount (NGN)').fill('9,000,000');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect(dialog.getByLabel('Amount (NGN)')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Amount (NGN)').fill('1,612,500.00');
    await expect(dialog.getByLabel('Method')).toHaveValue('bank_transfer');
    await dialog.getByLabel('Reference').fill('HTB-4471');
    await expectNoAxeViolationsInBothThemes(page, 'record payment dialog', 'dialog');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(issued.getByTestId('invoice-outstanding')).toHaveText('₦1,612,500.00');
    await expect(issued.getByTestId('payment')).toContainText('Bank transfer, ref. HTB-4471');
    const clientInvoice = clientPanel.getByRole('article', { name: new RegExp(`^Invoice ${invoiceNumber}`) });
    await expect(clientInvoice.getByTestId('invoice-outstanding')).toHaveText('₦1,612,500.00', LIVE);
    await expect(clientInvoice).toContainText('Part-paid');
    await expect(clientPanel.getByTestId('finance-paid')).toHaveText('₦1,612,500.00');
  });

  await test.step('the client pays the rest online; both sides see the balance reach zero live', async () => {
    const clientInvoice = clientPanel.getByRole('article', { name: new RegExp(`^Invoice ${invoiceNumber}`) });
    await clientInvoice.getByRole('button', { name: 'Pay ₦1,612,500.00 online' }).click();
    // Paystack's hosted page (the stand-in), then back to the portal once paid.
    await expect(client.getByRole('heading', { name: 'Pay ₦1,612,500.00' })).toBeVisible();
    await client.getByRole('button', { name: 'Pay ₦1,612,500.00' }).click();
    await client.waitForURL((url) => url.pathname === PATHS.clientDashboard && url.searchParams.has('paid'));
    await expect(client.getByText('Thank you: your payment is confirmed.')).toBeVisible(LIVE);
    const back = client.locator('#invoices').getByRole('article', { name: new RegExp(`^Invoice ${invoiceNumber}`) });
    await expect(back.getByTestId('invoice-outstanding')).toHaveText('₦0.00');
    await expect(back).toContainText('Paid');
    await expect(client.locator('#invoices').getByTestId('finance-paid')).toHaveText('₦3,225,000.00');
    // Staff never reloaded: the webhook's payment reaches their panel live.
    const issued = staffPanel.getByRole('article', { name: new RegExp(`^Invoice ${invoiceNumber}`) });
    await expect(issued.getByTestId('invoice-outstanding')).toHaveText('₦0.00', LIVE);
    await expect(issued.getByTestId('payment')).toHaveCount(2);
    await expect(issued.getByTestId('payment').nth(1)).toContainText('Paid online (Paystack)');
    await expect(staffPanel.getByTestId('finance-outstanding')).toHaveText('₦0.00');
  });

  await test.step('both sides are axe-clean in both themes and photographed at 390 and 1280 px', async () => {
    await expectNoAxeViolationsInBothThemes(page, 'staff finance', '#invoices');
    await expectNoAxeViolationsInBothThemes(client, 'client finance after a payment', '#invoices');
    await shootPanel(page, 'staff');
    await shootPanel(client, 'client');
  });
  await clientContext.close();
});

test('staff make a milestone depend on a timeline task, then remove the dependency', async ({ page }) => {
  const id = stamp();
  const { account, project } = await staffWithClientProject(
    page,
    { staff: `Bola Finance ${id}`, client: `Apapa Wharf ${id}` },
    { name: `Apapa berth ${id}`, code: `FD-${id}`.toUpperCase(), budget: '5,000,000', startDate: '2026-01-05', endDate: '2027-06-30' },
  );
  const timeline = await api(page, 'POST', '/gantt-charts', {
    projectId: project._id,
    projectTitle: `Berth works ${id}`,
    tasks: [
      { task: 'Piling', month: '2026-12', status: 'completed' },
      { task: 'Deck', month: '2027-01' },
    ],
  });
  expect(timeline.status).toBe(201);
  await openStaffProject(page, account._id, project._id);
  const panel = page.locator('#invoices');
  const form = panel.getByRole('form', { name: 'Edit payment plan' });
  const milestone = panel.getByTestId('milestone');

  await test.step('staff tick Piling under the milestone and save', async () => {
    await panel.getByRole('button', { name: 'Edit plan' }).click();
    const group = form.getByRole('group', { name: 'Milestone 1' });
    await group.getByLabel('Name').fill('Deck pour');
    await group.getByLabel('Share (%)').fill('50');
    await group.getByText('Depends on (0)').click();
    const tasks = group.getByRole('group', { name: `Berth works ${id}` });
    await expect(tasks.getByRole('checkbox')).toHaveCount(2);
    await tasks.getByRole('checkbox', { name: /Piling/ }).check();
    await expect(group.getByText('Depends on (1)')).toBeVisible();
    await expectNoAxeViolationsInBothThemes(page, 'plan editor with dependencies', '#invoices');
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => document.documentElement.classList.toggle('dark', t === 'dark'), theme);
      await page.setViewportSize({ width: 390, height: 900 });
      await form.screenshot({ path: `${SHOTS}/plan-editor-depends-${theme}-390.png` });
    }
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
    await page.setViewportSize({ width: 1280, height: 900 });
    await form.getByRole('button', { name: 'Save plan' }).click();
    await expect(milestone).toHaveCount(1);
    await expect(milestone).toContainText('Piling');
    await expect(milestone).toContainText('(done)');
  });

  await test.step('the task is renamed on the timeline; staff untick the old name and save: the dependency is gone', async () => {
    const renamed = await api(page, 'PUT', `/gantt-charts/${(timeline.body as { timeline: { _id: string } }).timeline._id}`, {
      projectTitle: `Berth works ${id}`,
      tasks: [
        { task: 'Piling works', month: '2026-12', status: 'completed' },
        { task: 'Deck', month: '2027-01' },
      ],
    });
    expect(renamed.status).toBe(200);
    await page.reload();
    await panel.getByRole('button', { name: 'Edit plan' }).click();
    const group = form.getByRole('group', { name: 'Milestone 1' });
    await group.getByText('Depends on (1)').click();
    const piling = group.getByRole('checkbox', { name: 'Piling (no longer on the timeline)' });
    await expect(piling).toBeChecked();
    await expect(group.getByRole('checkbox', { name: /Piling works/ })).not.toBeChecked();
    await piling.uncheck();
    await expect(group.getByText('Depends on (0)')).toBeVisible();
    await form.getByRole('button', { name: 'Save plan' }).click();
    await expect(form).toHaveCount(0);
    await expect(milestone).not.toContainText('Piling');
    await expect(milestone).toContainText('None');
  });
});
