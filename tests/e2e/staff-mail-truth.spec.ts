import type { BrowserContext, Page } from '@playwright/test';
import { FORM_MIN_FILL_MS } from '../../common/form-guard.ts';
import { PATHS } from '../../common/paths.ts';
import { checkEveryLook, DESKTOP, expect, expectNoAxeViolations, screenshotEveryLook, test } from './fixtures.ts';
import { ownServer } from './own-server.ts';
import { recordSecret } from './secret-recorder.ts';

// Issue 21 ("Right in every detail"), staff screens, on a server of its own started as a fresh
// install is: no SMTP_URL (the shared browser-test server has one) and no ADMIN_ALLOWED_CIDRS.

const server = ownServer('portal-no-mail', 9);
const BASE = server.base;
const ORIGIN = { origin: BASE };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // A fresh install: no mail transport, no admin address list (whatever this shell has set).
  const { SMTP_URL: _smtp, ADMIN_ALLOWED_CIDRS: _cidrs, ...inherited } = process.env;
  server.start({ E2E_TEST_HOOKS: '1' }, inherited);
  await server.waitUntil(() => fetch(`${BASE}/api/health`).then((r) => r.ok, () => false), 'server did not start');
});

test.afterAll(() => server.stop());

/** A signed-in admin in a context of its own on this server. */
async function adminPage(context: BrowserContext): Promise<{ page: Page; name: string }> {
  const page = await context.newPage();
  const name = `Chiamaka Obi ${Date.now().toString(36)}`;
  const made = await page.request.post(`${BASE}/api/test/users`, { data: { role: 'admin', name }, headers: ORIGIN });
  expect(made.status()).toBe(201);
  const { user, password } = await made.json();
  recordSecret('a test account password', password);
  const login = await page.request.post(`${BASE}/api/auth/adminlogin`, { data: { email: user.email, password }, headers: ORIGIN });
  expect(login.ok()).toBe(true);
  return { page, name };
}

/** Each look of the page: light and dark, phone and desktop; axe-clean; a screenshot to look at. */
const shot = (file: string) => test.info().outputPath(file);
const everyLook = (page: Page, name: string, ready: () => Promise<void>) => checkEveryLook(page, name, shot, ready);

test('the admin login says that any address may sign in while no address list is set', async ({ page }) => {
  await page.goto(`${BASE}${PATHS.adminLogin}`);
  const intro = page.getByText('Sign-in is open to any IP address');
  await expect(intro).toContainText('ADMIN_ALLOWED_CIDRS');
  await expect(page.getByText('restricted to pre-authorized IP addresses')).toHaveCount(0);
  await everyLook(page, 'admin-login-open', () => expect(intro).toBeVisible());
});

test('without SMTP: the dashboard banner, the invitation panel, and a username from the name that is checked', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  try {
    const { page } = await adminPage(context);
    await page.setViewportSize(DESKTOP);
    await page.goto(`${BASE}${PATHS.adminDashboard}`);
    const banner = page.getByRole('region', { name: 'E-mail is not set up: no mail leaves this server' });
    await expect(banner).toContainText('SMTP_URL');
    await expect(banner).toContainText('0 mails are waiting in the outbox');

    const form = page.getByRole('form', { name: 'Add client' });
    await form.getByLabel('Client name').fill('Rivers Marine Ltd');
    await form.getByLabel('Email').fill('projects@riversmarine.example');
    const username = form.getByLabel(/^Username/);
    await expect(username).toHaveValue('rivers.marine.ltd');
    await expect(form.getByText('rivers.marine.ltd is free.')).toBeVisible();
    await form.getByRole('button', { name: 'Add Client' }).click();
    const link = page.getByLabel('Invitation link for Rivers Marine Ltd');
    await expect(link).toHaveValue(/#token=/);
    const panel = page.getByText('E-mail is not set up: copy this link and send it yourself.');
    await expect(panel).toBeVisible();
    await expect(page.getByText('Sent by e-mail')).toHaveCount(0);
    // The invitation waits in the outbox: the banner counts it.
    await expect(banner).toContainText('1 mail is waiting in the outbox');

    // The same name again: the suggestion is a free one; the taken one is said to be taken before submitting.
    await form.getByLabel('Client name').fill('Rivers Marine Ltd');
    await expect(username).toHaveValue('rivers.marine.ltd2');
    await username.fill('rivers.marine.ltd');
    await expect(form.getByText('The username rivers.marine.ltd is already taken.')).toBeVisible();
    await expect(username).toHaveAttribute('aria-invalid', 'true');
    await form.getByRole('button', { name: 'Use rivers.marine.ltd2' }).click();
    await expect(username).toHaveValue('rivers.marine.ltd2');
    await expect(form.getByText('rivers.marine.ltd2 is free.')).toBeVisible();
    await expectNoAxeViolations(page, 'dashboard with the mail banner and the invitation panel');
    await screenshotEveryLook(page, 'dashboard-no-mail', shot);

    // Resending says the same: nothing was e-mailed.
    const row = page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: 'Rivers Marine Ltd' });
    await row.getByRole('button', { name: 'Resend invitation to Rivers Marine Ltd' }).click();
    await expect(row.getByText('E-mail is not set up: copy this link and send it yourself.')).toBeVisible();
    await expect(page.getByText(/was e-mailed/)).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("the 'Unread' inbox keeps an opened message, with its e-mail, phone and reply, until staff move on", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  try {
    const { page } = await adminPage(context);
    const who2 = ['Bisi Adeyemi', 'Musa Danladi'];
    const tokens: string[] = [];
    for (let i = 0; i < who2.length; i++) tokens.push((await (await page.request.get(`${BASE}/api/form-token`)).json()).token);
    // The form guard refuses a form sent faster than a person fills it in.
    await page.waitForTimeout(FORM_MIN_FILL_MS.contact + 300);
    for (const [i, who] of who2.entries()) {
      const token = tokens[i];
      const sent = await page.request.post(`${BASE}/api/contact`, {
        data: { name: who, email: `${who.split(' ')[0].toLowerCase()}@example.test`, phone: '+234 803 000 0000', company: '', message: `Hello from ${who}`, formToken: token, homepageUrl: '' },
        headers: ORIGIN,
      });
      expect(sent.status()).toBe(200);
    }
    await page.setViewportSize(DESKTOP);
    await page.goto(`${BASE}${PATHS.adminContactMessages}?filter=unread`);
    const list = page.getByRole('region', { name: /Inbox/ }).getByRole('list');
    const item = list.getByRole('listitem').filter({ hasText: 'Bisi Adeyemi' });
    await expect(item).toBeVisible();
    await expect(page.getByRole('heading', { name: /Inbox \(2 unread\)/ })).toBeVisible();

    const read = page.waitForResponse((r) => r.url().includes('/api/contact/messages/') && r.request().method() === 'PUT');
    await item.getByRole('button', { name: /Bisi Adeyemi/ }).click();
    expect((await read).status()).toBe(200);
    // The list has been fetched again (one unread left), and the opened message is still there, open.
    await expect(page.getByRole('heading', { name: /Inbox \(1 unread\)/ })).toBeVisible();
    await expect(item).toContainText('bisi@example.test');
    await expect(item).toContainText('+234 803 000 0000');
    await expect(item.getByRole('link', { name: 'Reply by e-mail' })).toHaveAttribute('href', /^mailto:bisi@example\.test/);
    await expect(item.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
    await expectNoAxeViolations(page, 'unread inbox with a message opened');
    await screenshotEveryLook(page, 'inbox-unread-opened', shot, () => expect(item).toContainText('bisi@example.test'));

    // Moving on (another view and back) shows the 'Unread' list as it is now.
    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(list.getByRole('listitem').filter({ hasText: 'Bisi Adeyemi' })).toBeVisible();
    await page.getByRole('button', { name: 'Unread', exact: true }).click();
    await expect(list.getByRole('listitem').filter({ hasText: 'Musa Danladi' })).toBeVisible();
    await expect(list.getByRole('listitem').filter({ hasText: 'Bisi Adeyemi' })).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test("a new blog post's Author is the signed-in staff member's name, and can be changed", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: BASE });
  try {
    const { page, name } = await adminPage(context);
    await page.goto(`${BASE}${PATHS.blogNew}`);
    const author = page.getByRole('textbox', { name: 'Author' });
    await expect(author).toHaveValue(name);
    await author.fill('Projects Team');
    await expect(author).toHaveValue('Projects Team');
    await author.fill(name);
    await everyLook(page, 'blog-new-author', () => expect(page.getByRole('textbox', { name: 'Author' })).toHaveValue(name));
  } finally {
    await context.close();
  }
});

test('visitors are promised no mail that cannot leave: the newsletter box and "Forgot password?"', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${BASE}${PATHS.about}`);
  const box = page.locator('footer');
  await expect(box.locator('form[data-ready="true"]')).toBeVisible();
  await box.getByLabel('Email address').fill('reader@news.example');
  await box.getByRole('button', { name: 'Subscribe' }).click();
  await expect(box.getByRole('status')).toHaveText(
    'Thank you. We cannot send the e-mail that confirms a subscription at the moment, so your subscription is not active yet. Please try again later.',
  );
  await expect(page.getByText('Check your inbox')).toHaveCount(0);
  await box.screenshot({ path: test.info().outputPath('newsletter-box-no-mail-light-1280.png') });

  await page.goto(`${BASE}${PATHS.forgotPassword}`);
  await page.getByLabel('Username or email').fill('no-such-user');
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  const answer = page.getByRole('status').filter({ hasText: 'no reset link can reach you' });
  await expect(answer).toBeVisible();
  await expect(page.getByText('we have sent an e-mail')).toHaveCount(0);
  await expectNoAxeViolations(page, 'forgot password without mail');
  await screenshotEveryLook(page, 'forgot-password-no-mail', shot);
});
