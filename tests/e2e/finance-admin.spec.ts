import { mkdirSync, readFileSync } from 'node:fs';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { PATHS } from '../../common/paths.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolationsInBothThemes, test } from './fixtures.ts';
import { ownServer } from './own-server.ts';
import { recordSecret } from './secret-recorder.ts';

// Issue 26: staff's finance screens. On a server of its own, whose clock only this spec moves (POST
// /api/test/clock): an invoice cannot be issued with a due date before today, so it is issued due
// tomorrow and the clock then moves three days on, making it overdue. Staff save the invoice
// settings through the form (a bad account number is refused first), then the overview shows the
// figures and the overdue invoice, and the CSV download holds its row.

const server = ownServer('finance-admin', 15);
const BASE = server.base;
const ORIGIN = { origin: BASE };
const SHOTS = process.env.FINANCE_ADMIN_SHOTS_DIR ?? '/tmp/finance-admin-shots';
mkdirSync(SHOTS, { recursive: true });
const DAY = 24 * 60 * 60_000;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const { DATABASE_URL: _db, ADMIN_ALLOWED_CIDRS: _cidrs, SMTP_URL: _smtp, ...inherited } = process.env;
  server.start({ E2E_TEST_HOOKS: '1' }, inherited);
  await server.waitUntil(() => fetch(`${BASE}/api/health`).then((r) => r.ok, () => false), 'server did not start');
});

test.afterAll(() => server.stop());

/** Creates an account through the test hook; a staff member is signed in to `page`'s context. */
async function account(request: APIRequestContext, input: { role: 'admin' | 'client'; name: string }) {
  const made = await request.post(`${BASE}/api/test/users`, { data: input, headers: ORIGIN });
  expect(made.status()).toBe(201);
  const { user, password } = await made.json();
  recordSecret('a test account password', password);
  return { user: user as { _id: string; email: string }, password: password as string };
}

async function staffPage(context: BrowserContext): Promise<{ page: Page; signIn: () => Promise<void> }> {
  const page = await context.newPage();
  const { user, password } = await account(page.request, { role: 'admin', name: 'Funke Finance' });
  const signIn = async () => {
    const login = await page.request.post(`${BASE}/api/auth/adminlogin`, { data: { email: user.email, password }, headers: ORIGIN });
    expect(login.ok()).toBe(true);
  };
  await signIn();
  return { page, signIn };
}

const addDays = (iso: string, n: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** Screenshots of the page at both widths in both themes (for people to look at). */
async function shots(page: Page, name: string) {
  for (const theme of ['light', 'dark'] as const) {
    for (const [label, size] of [['390', PHONE], ['1280', DESKTOP]] as const) {
      await page.setViewportSize(size);
      // The colours' transitions run out first, so the picture shows the theme as drawn.
      await page.evaluate(async (t) => {
        document.documentElement.classList.toggle('dark', t === 'dark');
        const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
        await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)));
      }, theme);
      await page.screenshot({ path: `${SHOTS}/${name}-${theme}-${label}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await page.setViewportSize(DESKTOP);
}

test('staff save the invoice settings (a bad account number refused first), and the overview shows an overdue invoice, its figures and its CSV row', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: BASE, acceptDownloads: true });
  try {
    const { page, signIn } = await staffPage(context);
    await page.setViewportSize(DESKTOP);

    // Nothing issued yet: zero figures and the empty overdue state; the navigation leads here.
    await page.goto(PATHS.adminDashboard);
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Finance/ }).click();
    await expect(page).toHaveURL(new RegExp(`${PATHS.adminFinance}$`));
    await expect(page.getByRole('heading', { name: 'Finance', level: 1 })).toBeVisible();
    await expect(page.getByText('Nothing is overdue')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Payments to check' })).toHaveCount(0);

    // The settings, from the overview's link.
    await page.getByRole('link', { name: 'Invoice settings' }).first().click();
    await expect(page.getByRole('heading', { name: 'Invoice settings', level: 1 })).toBeVisible();
    await expect(page.getByText('Invoices cannot be issued until the TIN and the bank details are set.')).toBeVisible();
    await expect(page.getByText('The TIN or bank details are missing: invoices cannot be issued yet.')).toBeVisible();
    await page.getByLabel('Invoice prefix').fill('INV');
    await page.getByLabel('Credit note prefix').fill('CN');
    await page.getByLabel('VAT rate (%)').fill('7.5');
    await page.getByLabel('Payment terms (days)').fill('30');
    await page.getByLabel('TIN').fill('12345678-0001');
    await page.getByLabel('Bank name').fill('Harbour Trust Bank');
    await page.getByLabel('Account name').fill('Lagos Marine Engineering Ltd');
    await page.getByLabel('Account number').fill('01234');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const number = page.getByLabel('Account number');
    await expect(page.getByText('A NUBAN account number has 10 digits')).toBeVisible();
    await expect(number).toHaveAttribute('aria-invalid', 'true');
    await expect(number).toBeFocused();
    await expectNoAxeViolationsInBothThemes(page, 'invoice settings with an error');
    await shots(page, 'settings-error');

    await number.fill('0123456789');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Invoice settings saved').first()).toBeVisible();
    await expect(page.getByText(/^Last saved /)).toBeVisible();
    await expect(page.getByText('A NUBAN account number has 10 digits')).toHaveCount(0);
    await expect(page.getByText('The TIN or bank details are missing: invoices cannot be issued yet.')).toHaveCount(0);
    const stored = await (await page.request.get(`${BASE}/api/finance/settings`)).json();
    expect(stored.settings).toMatchObject({ invoicePrefix: 'INV', vatRateBp: 750, paymentTermsDays: 30, bankAccountNumber: '0123456789', taxId: '12345678-0001' });
    // After a reload the form shows what is stored.
    await page.reload();
    await expect(page.getByLabel('VAT rate (%)')).toHaveValue('7.5');
    await expect(page.getByLabel('Account number')).toHaveValue('0123456789');
    await expectNoAxeViolationsInBothThemes(page, 'invoice settings saved');
    await shots(page, 'settings');

    // A client, a project and an invoice issued due tomorrow (server's today), through the API.
    const client = await account(page.request, { role: 'client', name: 'Apapa Terminals' });
    const made = await page.request.post(`${BASE}/api/projects`, {
      data: { name: 'Quay Wall Repair', code: `QW-${Date.now().toString(36)}`.toUpperCase(), clientId: client.user._id },
      headers: ORIGIN,
    });
    expect(made.status()).toBe(201);
    const projectId = (await made.json()).project._id as string;
    const today = (await (await page.request.get(`${BASE}/api/finance/overview`)).json()).today as string;
    const draft = await page.request.post(`${BASE}/api/finance/project/${projectId}/invoices`, {
      data: { lines: [{ description: 'Sheet piles, supplied and driven', quantity: 2, unitPrice: '1,000,000' }], dueDate: addDays(today, 1) },
      headers: ORIGIN,
    });
    expect(draft.status()).toBe(201);
    const invoiceId = (await draft.json()).invoice._id as string;
    const issued = await page.request.post(`${BASE}/api/invoices/${invoiceId}/issue`, { headers: ORIGIN });
    expect(issued.status(), await issued.text()).toBe(200);
    const invoiceNumber = (await issued.json()).invoice.number as string;
    expect(invoiceNumber).toMatch(/^INV/);

    // Three days on, the invoice is two days overdue.
    const moved = await page.request.post(`${BASE}/api/test/clock`, { data: { advanceMs: 3 * DAY }, headers: ORIGIN });
    expect(moved.status()).toBe(200);
    // Days later the staff session has ended: sign in again.
    await signIn();

    await page.goto(PATHS.adminFinance);
    await expect(page.getByRole('heading', { name: 'Finance', level: 1 })).toBeVisible();
    // 2 × ₦1,000,000.00 and 7.5 % VAT.
    const gross = '₦2,150,000.00';
    for (const card of ['This year', 'Outstanding', 'Overdue']) {
      await expect(page.getByRole('region', { name: card, exact: true })).toContainText(gross);
    }
    await expect(page.getByRole('region', { name: 'This year', exact: true })).toContainText('Received₦0.00');
    const table = page.getByRole('region', { name: 'Overdue invoices table' });
    const row = table.getByRole('row').filter({ hasText: invoiceNumber });
    await expect(row).toContainText('Apapa Terminals');
    await expect(row).toContainText('Quay Wall Repair');
    await expect(row.getByRole('cell').nth(5)).toHaveText('2');
    await expect(row.getByRole('link', { name: 'Quay Wall Repair' })).toHaveAttribute('href', `${PATHS.adminDashboard}?client=${client.user._id}&project=${projectId}#invoice-${invoiceId}`);
    await expect(page.getByText('Nothing is overdue')).toHaveCount(0);
    await expectNoAxeViolationsInBothThemes(page, 'finance overview');

    // The CSV download has the invoice's row.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^invoices-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const line = csv.split(/\r?\n/).find((l) => l.includes(invoiceNumber));
    expect(line).toBeTruthy();
    expect(line).toContain('Quay Wall Repair');

    // On a phone the overdue invoices stack as cards.
    await page.mouse.move(0, 0);
    await page.setViewportSize(PHONE);
    await expect(page.getByRole('list', { name: 'Overdue invoices, oldest first' }).getByRole('listitem')).toContainText('2 days overdue');
    await expectNoAxeViolationsInBothThemes(page, 'finance overview phone');
    await shots(page, 'overview');
  } finally {
    await context.close();
  }
});

test('a staff member without finance.read sees the no-access state on both pages', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  try {
    const page = await context.newPage();
    const made = await page.request.post(`${BASE}/api/test/users`, { data: { role: 'admin', name: 'Ed Editor', staffRole: 'editor' }, headers: ORIGIN });
    const { user, password } = await made.json();
    recordSecret('a test account password', password);
    expect((await page.request.post(`${BASE}/api/auth/adminlogin`, { data: { email: user.email, password }, headers: ORIGIN })).ok()).toBe(true);
    for (const [path, title] of [[PATHS.adminFinance, 'Finance'], [PATHS.adminFinanceSettings, 'Invoice settings']] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(page.getByText('Download CSV')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'You do not have access to this page' })).toBeVisible();
    }
    await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: /^Finance/ })).toHaveCount(0);
  } finally {
    await context.close();
  }
});
