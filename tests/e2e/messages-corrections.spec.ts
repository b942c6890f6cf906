import { mkdirSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import pg from 'pg';
import { PATHS } from '../../common/paths.ts';
import { THREAD_PAGE_SIZE_DEFAULT } from '../../common/schemas/messages.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test } from './fixtures.ts';
import { adminThreadUrl, clientThreadUrl, setUpThread, type ThreadSetup } from './message-setup.ts';
import { api } from './portal-helpers.ts';

// Issue 22: the author corrects or removes a message, Reply, 'Mark all as read', and the project
// status menu with Undo; staff and client side by side (two browser contexts), every change live.

const SHOTS = process.env.CORRECTIONS_SHOTS_DIR ?? 'test-results/corrections-shots';
mkdirSync(SHOTS, { recursive: true });
/** Live changes arrive within a few seconds, never after a reload. */
const LIVE = { timeout: 5_000 };

async function clientPage(browser: Browser, setup: ThreadSetup, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await signInAs(page, { role: 'client', account: setup.client });
  return page;
}

const section = (page: Page) => page.getByRole('region', { name: /^Project Communication/ });
const thread = (page: Page) => page.getByRole('region', { name: 'Message thread' });
const message = (page: Page, text: string | RegExp) => thread(page).getByRole('article').filter({ hasText: text });

async function sendVia(page: Page, projectId: string, subject: string, text: string) {
  const res = await api<{ message: { _id: string } }>(page, 'POST', '/messages', { subject, text, projectId });
  expect(res.status).toBe(201);
  return res.body.message._id;
}

async function dismissToasts(page: Page) {
  const close = page.getByRole('button', { name: 'Close notification' });
  while ((await close.count()) > 0) await close.first().click();
}

/** Both themes at both widths: the thread's part of the page, axe-checked, then screenshot. */
async function lookAt(page: Page, name: string, target: () => ReturnType<Page['locator']>, prepare?: () => Promise<void>) {
  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.evaluate((t) => localStorage.setItem('theme', t), theme);
      await page.setViewportSize(viewport);
      await page.reload();
      await prepare?.();
      await expectNoAxeViolations(page, `${name} ${theme} ${viewport.width}`);
      await target().screenshot({ path: `${SHOTS}/${name}-${theme}-${viewport.width}.png` });
    }
  }
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.setViewportSize(DESKTOP);
}

test('the author edits and deletes a message for 15 minutes; the other side sees both live; Reply and Mark all as read', async ({ browser, page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  const setup = await setUpThread(page, 'fix');
  const client = await clientPage(browser, setup);
  await page.goto(adminThreadUrl(setup));
  await client.goto(clientThreadUrl(setup));
  await expect(section(client).getByText('No messages yet. Start the conversation!')).toBeVisible();

  await test.step('the client sends a message with a typo and corrects it; staff see Edited live', async () => {
    const composer = section(client).getByRole('form', { name: 'Write a message' });
    await composer.getByLabel('Subject').fill('Subject: Delivery window');
    await composer.getByLabel('Message').fill('The trucks arive at 9.');
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(message(page, 'The trucks arive at 9.')).toBeVisible(LIVE);
    const own = message(client, 'The trucks arive at 9.');
    await own.getByRole('button', { name: 'Edit' }).click();
    // While it is edited the text is in the field (not the article's text): the form is found on its own.
    const form = thread(client).getByRole('form', { name: 'Edit message' });
    await expect(form.getByLabel('Message')).toBeFocused();
    await form.getByLabel('Message').fill('The trucks arrive at 9.');
    await section(client).screenshot({ path: `${SHOTS}/message-editing-light-1280.png` });
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(message(client, 'The trucks arrive at 9.')).toContainText('Edited');
    await expect(message(page, 'The trucks arrive at 9.')).toContainText('Edited', LIVE);
    await expect(thread(page)).not.toContainText('arive');
    // Staff may not change the client's words: no Edit or Delete on it, a Reply instead.
    await expect(message(page, 'The trucks arrive at 9.').getByRole('button', { name: 'Edit' })).toHaveCount(0);
    await expect(message(page, 'The trucks arrive at 9.').getByRole('button', { name: 'Reply' })).toBeVisible();
  });

  await test.step('staff reply: the composer quotes the subject', async () => {
    await message(page, 'The trucks arrive at 9.').getByRole('button', { name: 'Reply' }).click();
    const composer = section(page).getByRole('form', { name: 'Write a message' });
    await expect(composer.getByLabel('Subject')).toHaveValue('Subject: Re: Delivery window');
    await expect(composer.getByLabel('Message')).toBeFocused();
    await page.keyboard.type('Noted, the gate opens at 8.');
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(message(client, 'Noted, the gate opens at 8.')).toContainText('Re: Delivery window', LIVE);
  });

  await test.step('the client replies to staff with the Reply button too', async () => {
    await message(client, 'Noted, the gate opens at 8.').getByRole('button', { name: 'Reply' }).click();
    const composer = section(client).getByRole('form', { name: 'Write a message' });
    // 'Re:' once, however long the exchange.
    await expect(composer.getByLabel('Subject')).toHaveValue('Subject: Re: Delivery window');
    await expect(composer.getByLabel('Message')).toBeFocused();
  });

  await test.step('screenshots of the message actions', async () => {
    await dismissToasts(client);
    await lookAt(client, 'message-actions', () => section(client), async () => {
      await expect(message(client, 'The trucks arrive at 9.').getByRole('button', { name: 'Delete' })).toBeVisible();
    });
  });

  await test.step('the client deletes its message; staff see it removed live', async () => {
    await message(client, 'The trucks arrive at 9.').getByRole('button', { name: 'Delete' }).click();
    const dialog = client.getByRole('dialog', { name: 'Delete this message?' });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(client, 'delete confirmation');
    await dialog.getByRole('button', { name: 'Delete message' }).click();
    await expect(thread(client).getByText('This message was removed')).toBeVisible();
    await expect(thread(page).getByText('This message was removed')).toBeVisible(LIVE);
    await expect(thread(page)).not.toContainText('The trucks arrive at 9.');
    // The reply around it keeps its place.
    await expect(message(page, 'Noted, the gate opens at 8.')).toBeVisible();
    await section(page).screenshot({ path: `${SHOTS}/message-removed-light-1280.png` });
  });

  await test.step("Mark all as read clears the client's unread count in one request, and another open tab live", async () => {
    await dismissToasts(page);
    for (const n of [1, 2, 3]) await sendVia(page, setup.project._id, `Update ${n}`, `Progress note ${n}`);
    const second = await client.context().newPage();
    await second.goto(clientThreadUrl(setup));
    // 'Noted...' was read when the client clicked Reply on it; the three new ones wait.
    await expect(section(client).getByRole('button', { name: /Project Communication/ })).toContainText('3 unread', LIVE);
    await expect(section(second).getByRole('button', { name: /Project Communication/ })).toContainText('3 unread', LIVE);
    const requests: string[] = [];
    client.on('request', (r) => {
      if (r.url().includes('/read')) requests.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await section(client).getByRole('button', { name: 'Mark all as read' }).click();
    await expect(section(client).getByRole('button', { name: /Project Communication/ })).not.toContainText('unread');
    await expect(section(second).getByRole('button', { name: /Project Communication/ })).not.toContainText('unread', LIVE);
    await expect(section(second).getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
    expect(requests).toEqual([`PUT /api/messages/project/${setup.project._id}/read`]);
    // Staff see their three messages read.
    await expect(message(page, 'Progress note 3')).toContainText('Read', LIVE);
  });
});

test('staff choose any status in one step from a menu, the client sees only the final one, and Undo restores it', async ({ browser, page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  const setup = await setUpThread(page, 'status');
  const client = await clientPage(browser, setup);
  await page.goto(adminThreadUrl(setup));
  await client.goto(clientThreadUrl(setup));
  const clientItem = client.getByRole('list', { name: 'My projects' }).getByRole('listitem').filter({ hasText: setup.project.name });
  await expect(clientItem).toContainText('Not started');
  // Every status text the client's list ever shows, to prove no flicker through the cycle.
  await client.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { __seen: Set<string> }).__seen = seen;
    const list = document.querySelector('ul[aria-label="My projects"]')!;
    new MutationObserver(() => seen.add(list.textContent ?? '')).observe(list, { subtree: true, childList: true, characterData: true });
  });

  const menuButton = page.getByRole('button', { name: `Choose status of ${setup.project.name}` });
  await test.step('keyboard: open the menu, move to Completed, choose it: one request', async () => {
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/status')) requests.push(`${r.method()} ${r.postData()}`);
    });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: `Status of ${setup.project.name}` });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('menuitemradio', { name: 'Not started' })).toHaveAttribute('aria-checked', 'true');
    await expect(menu.getByRole('menuitemradio', { name: 'Not started' })).toBeFocused();
    await page.keyboard.press('End');
    await expect(menu.getByRole('menuitemradio', { name: 'Completed' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(menu).toBeHidden();
    await expect(menuButton).toBeFocused();
    await expect(page.getByRole('button', { name: `Completed: change status of ${setup.project.name}` })).toBeVisible();
    await expect(clientItem).toContainText('Completed', LIVE);
    expect(requests).toEqual(['PUT {"status":"completed"}']);
    const seen = await client.evaluate(() => [...(window as unknown as { __seen: Set<string> }).__seen].join(' | '));
    expect(seen).not.toMatch(/In progress|Paused/);
  });

  await test.step('Undo in the toast restores the previous status, live on the client', async () => {
    const toastCard = page.getByRole('listitem').filter({ hasText: 'Project status updated' });
    await expect(toastCard).toContainText(`${setup.project.name}: Completed`);
    await page.screenshot({ path: `${SHOTS}/status-undo-toast-light-1280.png` });
    await toastCard.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('button', { name: `Not started: change status of ${setup.project.name}` })).toBeVisible();
    await expect(page.getByText('Project status restored')).toBeVisible();
    await expect(clientItem).toContainText('Not started', LIVE);
  });

  await test.step('the Undo offer goes after 10 seconds', async () => {
    await dismissToasts(page);
    await menuButton.click();
    await page.getByRole('menuitemradio', { name: 'Paused' }).click();
    const toastCard = page.getByRole('listitem').filter({ hasText: 'Project status updated' });
    await expect(toastCard.getByRole('button', { name: 'Undo' })).toBeVisible();
    // Still there after the usual 5 seconds, gone after 10 (the pointer is kept off the stack, which would pause it).
    await page.mouse.move(0, 0);
    await page.waitForTimeout(6_000);
    await expect(toastCard.getByRole('button', { name: 'Undo' })).toBeVisible();
    await expect(toastCard).toBeHidden({ timeout: 6_000 });
    await expect(clientItem).toContainText('Paused');
  });

  await test.step('Escape closes the menu without a change; the cycling button still cycles', async () => {
    await menuButton.click();
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(menuButton).toBeFocused();
    await page.getByRole('button', { name: `Paused: change status of ${setup.project.name}` }).click();
    await expect(page.getByRole('button', { name: `Completed: change status of ${setup.project.name}` })).toBeVisible();
    await expect(clientItem).toContainText('Completed', LIVE);
  });

  await test.step('screenshots of the open status menu', async () => {
    await dismissToasts(page);
    const list = page.getByRole('list', { name: /projects/i }).first();
    await lookAt(page, 'status-menu', () => page.locator('main'), async () => {
      await menuButton.click();
      await expect(page.getByRole('menu')).toBeVisible();
    });
    await expect(list).toBeVisible();
  });
});

/**
 * Puts `count` messages from staff after the thread's last one, straight into the browser-test
 * server's database, so an earlier message is pages back.
 */
async function pushBack(projectId: string, adminId: string, clientId: string, count: number) {
  const db = new pg.Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${process.env.E2E_PG_PORT ?? 54410}/app` });
  await db.connect();
  try {
    await db.query(
      // Read by the client's person too: a client's reads are rows of message_reads (decision 281).
      `with sent as (insert into messages (project_id, sender_id, receiver_id, subject, text, is_read, created_at)
         select $1, $2, $3, '', 'Later site note ' || n, true, now() + n * interval '1 millisecond' from generate_series(1, $4::int) n
         returning id)
       insert into message_reads (message_id, user_id, read_at) select id, $3, now() from sent`,
      [projectId, adminId, clientId, count],
    );
  } finally {
    await db.end();
  }
}

const searchBox = (page: Page) => page.getByRole('combobox', { name: /^Search/ });

test('a search hit opens the thread at that message, pages back, marked and focused; staff open its earlier version', async ({ browser, page }) => {
  // Twelve reloads of a 220-message thread, each axe-checked whole: slow on a shared machine.
  test.setTimeout(600_000);
  await page.setViewportSize(DESKTOP);
  const setup = await setUpThread(page, 'found');
  const client = await clientPage(browser, setup);
  const word = `crane${Date.now().toString(36)}`;
  const id = await sendVia(client, setup.project._id, 'Subject: Crane visit', `The ${word} arrives on Monday.`);
  const edited = await api(client, 'PATCH', `/messages/${id}`, { text: `The ${word} arrives on Tuesday.` });
  expect(edited.status).toBe(200);
  await pushBack(setup.project._id, setup.admin._id, setup.client._id, THREAD_PAGE_SIZE_DEFAULT + 20);
  const found = (p: Page) => p.locator(`#message-${id}`);

  for (const [who, p, home] of [['staff', page, PATHS.adminDashboard], ['client', client, PATHS.clientDashboard]] as const) {
    await test.step(`${who}: the search finds the message and Enter opens the thread at it`, async () => {
      await p.goto(home);
      await searchBox(p).fill(`${word} arriving`);
      await expect(p.getByRole('listbox', { name: 'Search results' }).getByRole('option')).toHaveCount(1);
      await searchBox(p).press('Enter');
      await expect(p).toHaveURL(new RegExp(`project=${setup.project._id}#message-${id}$`));
      // Two pages back: the thread loads them by itself, then marks the message and gives it the focus.
      await expect(found(p)).toBeFocused({ timeout: 15_000 });
      await expect(found(p)).toHaveAttribute('data-found', 'true');
      await expect(found(p)).toHaveAccessibleName(/found by search/);
      await expect(found(p)).toBeInViewport();
      await expect(found(p)).toContainText('arrives on Tuesday');
    });
  }

  await test.step('the client sees Edited only; staff open the earlier version from it', async () => {
    await expect(found(client)).toContainText('Edited');
    await expect(found(client).getByRole('button', { name: /earlier versions/ })).toHaveCount(0);
    await found(page).getByRole('button', { name: 'Earlier versions' }).click();
    const dialog = page.getByRole('dialog', { name: /^Earlier versions of the message from Amaka Client/ });
    await expect(dialog.getByRole('listitem')).toHaveCount(2);
    await expect(dialog.getByRole('listitem').first()).toContainText('arrives on Tuesday');
    await expect(dialog.getByRole('listitem').nth(1)).toContainText('As sent');
    await expect(dialog.getByRole('listitem').nth(1)).toContainText(`The ${word} arrives on Monday.`);
    await expect(dialog).toContainText('WAT');
    await expectNoAxeViolations(page, 'message versions dialog');
    await dialog.screenshot({ path: `${SHOTS}/message-versions-light-1280.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  await test.step('the found message, and the versions dialog, at 390 and 1280 px in both themes', async () => {
    // A reload with the address keeps its #message-: the thread opens at it again.
    for (const [who, p] of [['staff', page], ['client', client]] as const) {
      await lookAt(p, `message-found-${who}`, () => p.locator('main'), async () => {
        await expect(found(p)).toBeFocused({ timeout: 15_000 });
      });
    }
    await lookAt(page, 'message-versions', () => page.getByRole('dialog'), async () => {
      await expect(found(page)).toBeFocused({ timeout: 15_000 });
      await found(page).getByRole('button', { name: 'Earlier versions' }).click();
      await expect(page.getByRole('dialog').getByRole('listitem')).toHaveCount(2);
    });
  });
});
