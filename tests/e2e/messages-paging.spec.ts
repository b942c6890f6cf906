import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { THREAD_PAGE_SIZE_DEFAULT } from '../../common/schemas/messages.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { samplePng } from '../helpers/sample-files.ts';
import type { RateLimitRule } from '../../server/lib/rate-limit.ts';
import { MESSAGE_RATE_LIMITS, UPLOAD_RATE_LIMIT } from '../../server/modules/messages/messages.routes.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test, useTheme as presetTheme, type E2EAccount } from './fixtures.ts';
import { adminThreadUrl, clientThreadUrl, setUpThread, type ThreadSetup } from './message-setup.ts';

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = process.env.MESSAGES_SHOTS_DIR ?? 'test-results/messages-shots';
const SEEDED = THREAD_PAGE_SIZE_DEFAULT + 30;

/** The browser-test server's own database (the embedded PostgreSQL of playwright.config.ts). */
const pgClient = () => new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app` });

const noteText = (i: number) => `Older note ${String(i).padStart(3, '0')}`;

/**
 * Writes a long thread straight into the server's database: more than one page, two messages to
 * each timestamp (1 and 2, 3 and 4, ...), days before now (the server's clock is the real one here). Every third message
 * is from staff and already read by the client; the client's are read by staff, except none.
 */
async function seedLongThread(s: ThreadSetup) {
  const db = pgClient();
  await db.connect();
  try {
    const start = Date.now() - 3 * 24 * 60 * 60_000;
    for (let i = 1; i <= SEEDED; i++) {
      const fromStaff = i % 3 === 0;
      await db.query(
        // A staff message the client read is also a read of the client's person (decision 281).
        `with sent as (insert into messages (project_id, sender_id, receiver_id, subject, text, is_read, created_at) values ($1, $2, $3, '', $4, $5, $6)
           returning id, receiver_id, is_read)
         insert into message_reads (message_id, user_id, read_at) select id, receiver_id, now() from sent where receiver_id is not null and is_read`,
        [
          s.project._id,
          fromStaff ? s.admin._id : s.client._id,
          fromStaff ? s.client._id : null,
          noteText(i),
          // Message 3 (on the earlier page) waits for the client, to show its receipt arriving later.
          i !== 3,
          new Date(start + Math.floor((i - 1) / 2) * 60_000),
        ],
      );
    }
  } finally {
    await db.end();
  }
}

const section = (page: Page) => page.getByRole('region', { name: /^Project Communication/ });
const thread = (page: Page) => page.getByRole('region', { name: 'Message thread' });
const note = (page: Page, i: number) => thread(page).getByRole('article').filter({ hasText: noteText(i) });
const showEarlier = (page: Page) => thread(page).getByRole('button', { name: 'Show earlier messages' });
const adminUrl = adminThreadUrl;
const clientUrl = clientThreadUrl;

/**
 * Scrolls the page (not the thread) until the whole thread is on screen, as a reader at 1280x800
 * does: the thread's lower edge starts below the fold there, by an amount that depends on the rows
 * above it (the 'Next unread thread' button shows whenever any client's message waits, and other
 * tests leave such messages). Only then does `toBeInViewport` of a message judge the thread's own scroll.
 */
async function bringThreadOnScreen(page: Page) {
  await thread(page).evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect(thread(page)).toBeInViewport({ ratio: 1 });
}

/** Pixels of the thread's content below its visible area (0 when it shows the newest message). */
const belowThread = (page: Page) => thread(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** Where an element sits inside the scrolling thread's visible area (pixels from its top). */
async function offsetInThread(page: Page, target: Locator): Promise<number> {
  const box = await target.boundingBox();
  const frame = await thread(page).boundingBox();
  return box!.y - frame!.y;
}

async function signedInPage(browser: Browser, account: E2EAccount, role: 'admin' | 'client', viewport = DESKTOP, theme?: 'light' | 'dark') {
  const context = await browser.newContext({ viewport, baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  if (theme) await presetTheme(page, theme);
  await signInAs(page, { role, account });
  return page;
}

test('Show earlier messages puts the previous page in front without moving the reader; live messages and receipts keep every loaded page', async ({ browser, page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  const setup = await setUpThread(page, 'pages');
  await seedLongThread(setup);
  await page.goto(adminUrl(setup));

  await test.step('the newest page shows, scrolled to the newest message, with the button at the top', async () => {
    await expect(thread(page).getByRole('article')).toHaveCount(THREAD_PAGE_SIZE_DEFAULT);
    await bringThreadOnScreen(page);
    // The seed's newest two share a timestamp, so their order is the ids' order: either is the last.
    const newest = thread(page).getByRole('article').last();
    await expect(newest).toContainText(new RegExp(`${noteText(SEEDED - 1)}|${noteText(SEEDED)}`));
    await expect(newest).toBeInViewport({ ratio: 1 });
    await expect.poll(() => belowThread(page)).toBeLessThanOrEqual(1);
    await expect(note(page, SEEDED)).toBeInViewport();
    await expect(note(page, 30)).toHaveCount(0);
    await expect(showEarlier(page)).toHaveCount(1);
    await expectNoAxeViolations(page, 'thread with earlier messages');
  });

  await test.step('the reader scrolls up and asks for earlier messages; what they read stays in place', async () => {
    await thread(page).evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(showEarlier(page)).toBeInViewport();
    const firstShown = note(page, 31);
    const before = await offsetInThread(page, firstShown);
    await showEarlier(page).click();
    await expect(thread(page).getByRole('article')).toHaveCount(SEEDED);
    await expect(note(page, 1)).toHaveCount(1);
    // Nothing older is left: the button goes, the keyboard stays in the thread.
    await expect(showEarlier(page)).toHaveCount(0);
    await expect(thread(page)).toBeFocused();
    expect(Math.abs((await offsetInThread(page, firstShown)) - before)).toBeLessThanOrEqual(2);
    await expect(firstShown).toBeInViewport();
    await expect(note(page, 1)).not.toBeInViewport();
    await expect(page.getByRole('status').filter({ hasText: '30 earlier messages loaded' })).toHaveCount(1);
    await expectNoAxeViolations(page, 'thread after loading earlier messages');
  });

  await test.step('a receipt for a message on the earlier page and a new message both arrive live; no loaded page is lost', async () => {
    const staffNote = note(page, 3);
    await expect(staffNote.getByText('Delivered')).toBeVisible();
    const client = await signedInPage(browser, setup.client, 'client');
    // The client's badge counts the unread message 3 although only the newest page is loaded.
    await client.goto(clientUrl(setup));
    await expect(thread(client).getByRole('article')).toHaveCount(THREAD_PAGE_SIZE_DEFAULT);
    await expect(note(client, 3)).toHaveCount(0);
    await expect(section(client).getByText('1 unread', { exact: true })).toBeVisible();
    const list = await client.request.get(`/api/messages/project/${setup.project._id}?limit=200`);
    const third = ((await list.json()).messages as { _id: string; text: string }[]).find((m) => m.text === noteText(3))!;
    expect((await client.request.put(`/api/messages/${third._id}/read`, { headers: ORIGIN })).status()).toBe(200);
    // Staff see which person of the client read it (decision 281).
    await expect(staffNote.getByText(`Read by ${setup.client.name}`, { exact: true })).toBeVisible();
    await expect(section(client).getByText('1 unread', { exact: true })).toHaveCount(0);
    const sent = await client.request.post('/api/messages', { data: { text: 'A fresh reply', projectId: setup.project._id }, headers: ORIGIN });
    expect(sent.status()).toBe(201);
    await expect(thread(page).getByRole('article').last()).toContainText('A fresh reply');
    // The reply made the 'Next unread thread' row above taller: the thread is brought on screen again.
    await bringThreadOnScreen(page);
    await expect(thread(page).getByRole('article').last()).toBeInViewport({ ratio: 1 });
    await expect.poll(() => belowThread(page)).toBeLessThanOrEqual(1);
    await expect(thread(page).getByRole('article')).toHaveCount(SEEDED + 1);
    await expect(note(page, 1)).toHaveCount(1);
    await client.context().close();
  });
});

/**
 * Uses up a user's allowance of a rate limit, in the current window and the next, straight in the
 * server's counters: the page's request is refused whichever window it lands in (the server runs on
 * the real clock here; the limits themselves are proven with a fake one in messages-limits.test.ts).
 */
async function exhaust(rule: RateLimitRule, userId: string) {
  const db = pgClient();
  await db.connect();
  try {
    const current = Math.floor(Date.now() / rule.windowMs) * rule.windowMs;
    for (const start of [current, current + rule.windowMs]) {
      await db.query(
        `insert into rate_limit_counters (key, window_start, count, expires_at) values ($1, $2, $3, $4)
         on conflict (key, window_start) do update set count = excluded.count`,
        [`${rule.bucket}:${userId}`, new Date(start), rule.limit, new Date(start + rule.windowMs)],
      );
    }
  } finally {
    await db.end();
  }
}

test('the composer shows the server\'s reason when the sending limit is reached', async ({ browser, page }) => {
  const setup = await setUpThread(page, 'limit');
  const client = await signedInPage(browser, setup.client, 'client');
  await exhaust(MESSAGE_RATE_LIMITS[0], setup.client._id);
  await client.goto(clientUrl(setup));
  const composer = section(client).getByRole('form', { name: 'Write a message' });
  await composer.getByLabel('Message', { exact: true }).fill('One more from the page');
  await composer.getByRole('button', { name: 'Send' }).click();
  const alert = client.getByRole('alert').filter({ hasText: 'Failed to send message' });
  await expect(alert).toContainText('You are sending messages too quickly. Please try again in a minute.');
  await expect(section(client).getByText('No messages yet. Start the conversation!')).toBeVisible();
  await expect(composer.getByLabel('Message', { exact: true })).toHaveValue('One more from the page');
  await client.context().close();
});

test('the composer shows the server\'s reason when the upload limit is reached', async ({ browser, page }) => {
  const setup = await setUpThread(page, 'uplimit');
  const client = await signedInPage(browser, setup.client, 'client');
  await exhaust(UPLOAD_RATE_LIMIT, setup.client._id);
  await client.goto(clientUrl(setup));
  const composer = section(client).getByRole('form', { name: 'Write a message' });
  await composer.getByLabel('Message', { exact: true }).fill('With a photo');
  await composer.getByLabel('Attach files').setInputFiles([{ name: 'site.png', mimeType: 'image/png', buffer: await samplePng(2, 2) }]);
  await composer.getByRole('button', { name: 'Send' }).click();
  const alert = client.getByRole('alert').filter({ hasText: 'Failed to upload all attachments' });
  await expect(alert).toContainText(/Too many uploads\. Please try again in (a minute|\d+ minutes)\./);
  // Nothing was sent: the thread is still empty and the text is kept for a later try.
  await expect(section(client).getByText('No messages yet. Start the conversation!')).toBeVisible();
  await expect(composer.getByLabel('Message', { exact: true })).toHaveValue('With a photo');
  await client.context().close();
});

// One test per theme (four signed-in pages with axe each): all eight in one test ran out of time on a loaded machine.
for (const theme of ['light', 'dark'] as const) {
  test(`the thread with Show earlier messages is accessible and readable on phones and desktops, ${theme}`, async ({ browser, page }) => {
    test.setTimeout(360_000);
    const setup = await setUpThread(page, `pglook${theme === 'light' ? 'l' : 'd'}`);
    await seedLongThread(setup);
    mkdirSync(SHOTS, { recursive: true });
    for (const viewport of [PHONE, DESKTOP]) {
      for (const role of ['admin', 'client'] as const) {
        const p = await signedInPage(browser, role === 'admin' ? setup.admin : setup.client, role, viewport, theme);
        await p.goto(role === 'admin' ? adminUrl(setup) : clientUrl(setup));
        // A hundred messages to lay out while more pages wait their turn: a loaded machine needs more than 10 s.
        await expect(thread(p).getByRole('article')).toHaveCount(THREAD_PAGE_SIZE_DEFAULT, { timeout: 30_000 });
        await thread(p).evaluate((el) => el.scrollTo({ top: 0 }));
        await showEarlier(p).focus();
        await section(p).scrollIntoViewIfNeeded();
        await expectNoAxeViolations(p, `${role} ${theme} ${viewport.width}`);
        await thread(p).screenshot({ path: `${SHOTS}/earlier-${role}-${theme}-${viewport.width}.png` });
        await p.context().close();
      }
    }
  });
}
