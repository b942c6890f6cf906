import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { samplePdf, samplePng } from '../helpers/sample-files.ts';
import { MESSAGE_ATTACHMENT_MAX_BYTES } from '../../common/schemas/messages.ts';
import { DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test, useTheme as presetTheme } from './fixtures.ts';
import { adminThreadUrl, clientThreadUrl, setUpThread, type ThreadSetup } from './message-setup.ts';

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = process.env.MESSAGES_SHOTS_DIR ?? 'test-results/messages-shots';

async function clientPage(browser: Browser, setup: ThreadSetup, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await signInAs(page, { role: 'client', account: setup.client });
  return page;
}

/** Closes every notification (they sit over the bottom-right corner, where Send is, and hovering keeps them). */
async function dismissToasts(page: Page) {
  const close = page.getByRole('button', { name: 'Close notification' });
  while ((await close.count()) > 0) await close.first().click();
}
const clientRow = (page: Page, s: ThreadSetup) => page.getByRole('list', { name: 'Clients' }).getByRole('listitem').filter({ hasText: s.client.name });
const section = (page: Page) => page.getByRole('region', { name: /^Project Communication/ });
const thread = (page: Page) => page.getByRole('region', { name: 'Message thread' });
const adminUrl = adminThreadUrl;
const clientUrl = clientThreadUrl;

test('staff and client exchange messages with an image and a PDF, live, with previews, downloads and unread counts', async ({ browser, page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const setup = await setUpThread(page, 'story');
  const client = await clientPage(browser, setup);
  await page.goto(adminUrl(setup));
  await client.goto(clientUrl(setup));

  await test.step('both see the empty thread', async () => {
    await expect(section(page).getByText('No messages yet. Start the conversation!')).toBeVisible();
    await expect(section(client).getByText('No messages yet. Start the conversation!')).toBeVisible();
    await expect(clientRow(page, setup)).toContainText('No unread messages');
    // The section folds away and opens again.
    const toggle = section(client).getByRole('button', { name: /Project Communication/ });
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(section(client).getByRole('form', { name: 'Write a message' })).toBeHidden();
    await toggle.click();
    await expect(section(client).getByRole('form', { name: 'Write a message' })).toBeVisible();
  });

  await test.step('the client writes with an image and a PDF; a wrong file is refused with a toast', async () => {
    const composer = section(client).getByRole('form', { name: 'Write a message' });
    const send = composer.getByRole('button', { name: 'Send' });
    await expect(send).toBeDisabled();
    const subject = composer.getByLabel('Subject');
    await expect(subject).toHaveValue('Subject: ');
    // The prefix cannot be removed.
    await subject.press('End');
    await subject.press('Backspace');
    await expect(subject).toHaveValue('Subject: ');
    await subject.pressSequentially('Site photos');
    await expect(subject).toHaveValue('Subject: Site photos');
    await composer.getByLabel('Message', { exact: true }).fill('   ');
    await expect(send).toBeDisabled();
    await composer.getByLabel('Message', { exact: true }).fill('Here are the photos from Monday and the drawing.');
    await expect(send).toBeEnabled();
    await composer.getByLabel('Attach files').setInputFiles([
      { name: 'setup.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ binary') },
    ]);
    await expect(client.getByRole('alert').filter({ hasText: 'Invalid File Type' })).toContainText('setup.exe has an unsupported file type');
    await composer.getByLabel('Attach files').setInputFiles([
      { name: 'jetty.png', mimeType: 'image/png', buffer: await samplePng(640, 480) },
      { name: 'drawing.pdf', mimeType: 'application/pdf', buffer: samplePdf('Jetty drawing') },
    ]);
    await expect(composer.getByRole('list', { name: 'Chosen attachments' }).getByRole('listitem')).toHaveCount(2);
    await send.click();
    await expect(client.getByRole('status').filter({ hasText: 'Message sent successfully' })).toBeVisible();
    await expect(composer.getByLabel('Subject')).toHaveValue('Subject: ');
    const mine = thread(client).getByRole('article').last();
    await expect(mine).toContainText('Here are the photos from Monday');
    await expect(mine.getByRole('list', { name: 'Attachments' }).getByRole('listitem')).toHaveCount(2);
    await expect(mine).toContainText('Delivered');
  });

  await test.step('staff see it arrive without reloading, marked unread, and the client list counts it', async () => {
    const message = thread(page).getByRole('article', { name: /unread/ });
    await expect(message).toContainText('Site photos');
    await expect(clientRow(page, setup)).toContainText('1 unread');
    await expect(section(page).getByRole('button', { name: /Project Communication/ })).toContainText('1 unread');
  });

  await test.step('staff preview the image, page to the PDF and download it', async () => {
    const message = thread(page).getByRole('article').last();
    await message.getByRole('button', { name: 'Preview jetty.png' }).click();
    const dialog = page.getByRole('dialog', { name: 'jetty.png' });
    await expect(dialog).toBeVisible();
    const image = dialog.getByRole('img', { name: 'jetty.png' });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640);
    await dialog.getByRole('button', { name: 'Show attachment 2 of 2: drawing.pdf' }).click();
    const pdfDialog = page.getByRole('dialog', { name: 'drawing.pdf' });
    await expect(pdfDialog.getByText('Preview not available for this file type')).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), pdfDialog.getByRole('link', { name: 'Download' }).click()]);
    expect(download.suggestedFilename()).toBe('drawing.pdf');
    const saved = await download.path();
    expect(saved).toBeTruthy();
    await pdfDialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  await test.step('staff open the message: it is read, the count drops and the client sees the receipt live', async () => {
    // Clicking the message (its text; the attachments open their preview) marks it read.
    await thread(page).getByRole('article', { name: /unread/ }).getByText('Here are the photos from Monday').click();
    await expect(thread(page).getByRole('article', { name: /unread/ })).toHaveCount(0);
    await expect(clientRow(page, setup)).toContainText('No unread messages');
    await expect(thread(client).getByRole('article').last()).toContainText('Read');
  });

  await test.step('staff answer; the client sees it live, previews the image from its own message and marks the answer read', async () => {
    const composer = section(page).getByRole('form', { name: 'Write a message' });
    await composer.getByLabel('Subject').pressSequentially('Re: Site photos');
    await composer.getByLabel('Message', { exact: true }).fill('Thank you, the drawing is approved.');
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Message sent successfully' })).toBeVisible();
    const answer = thread(client).getByRole('article', { name: /unread/ });
    await expect(answer).toContainText('Thank you, the drawing is approved.');
    await expect(section(client).getByRole('button', { name: /Project Communication/ })).toContainText('1 unread');
    await answer.getByRole('button', { name: 'Mark as read' }).click();
    await expect(thread(client).getByRole('article', { name: /unread/ })).toHaveCount(0);
    await thread(client).getByRole('button', { name: 'Preview jetty.png' }).click();
    await expect(client.getByRole('dialog', { name: 'jetty.png' }).getByRole('img', { name: 'jetty.png' })).toBeVisible();
    await client.keyboard.press('Escape');
    await expect(client.getByRole('dialog')).toHaveCount(0);
  });

  await client.context().close();
});

test('a failed upload is skipped, all failing stops the send, and a file over 50MB is refused at once', async ({ browser, page }) => {
  const setup = await setUpThread(page, 'fail');
  const client = await clientPage(browser, setup);
  await client.goto(clientUrl(setup));
  const composer = section(client).getByRole('form', { name: 'Write a message' });
  const big = mkdtempSync(path.join(os.tmpdir(), 'msg-big-'));
  try {
    await test.step('over 50MB: File Too Large, the file is not added', async () => {
      const file = path.join(big, 'survey.mp4');
      writeFileSync(file, '');
      truncateSync(file, MESSAGE_ATTACHMENT_MAX_BYTES + 1);
      await composer.getByLabel('Attach files').setInputFiles(file);
      await expect(client.getByRole('alert').filter({ hasText: 'File Too Large' })).toContainText('survey.mp4 exceeds the 50MB size limit');
      await expect(composer.getByRole('list', { name: 'Chosen attachments' })).toHaveCount(0);
    });
  } finally {
    rmSync(big, { recursive: true, force: true });
  }

  await test.step('every upload failing: Failed to upload all attachments, nothing sent', async () => {
    await client.route('**/api/messages/upload', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"message":"boom"}' }));
    await composer.getByLabel('Message', { exact: true }).fill('With a photo that will not arrive');
    await composer.getByLabel('Attach files').setInputFiles([{ name: 'a.png', mimeType: 'image/png', buffer: await samplePng() }]);
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(client.getByRole('alert').filter({ hasText: 'Failed to upload all attachments' })).toBeVisible();
    await expect(section(client).getByText('No messages yet. Start the conversation!')).toBeVisible();
    await client.unroute('**/api/messages/upload');
  });

  await test.step('one of two failing: the message goes with the other', async () => {
    let calls = 0;
    await client.route('**/api/messages/upload', (route) =>
      ++calls === 1 ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"message":"boom"}' }) : route.continue(),
    );
    await composer.getByLabel('Attach files').setInputFiles([{ name: 'b.pdf', mimeType: 'application/pdf', buffer: samplePdf() }]);
    await expect(composer.getByRole('list', { name: 'Chosen attachments' }).getByRole('listitem')).toHaveCount(2);
    await dismissToasts(client);
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(client.getByRole('status').filter({ hasText: 'Message sent successfully' })).toBeVisible();
    const sent = thread(client).getByRole('article').last();
    await expect(sent.getByRole('list', { name: 'Attachments' }).getByRole('listitem')).toHaveCount(1);
    await expect(sent.getByRole('button', { name: 'Preview b.pdf' })).toBeVisible();
  });

  await test.step('the server refusing the message: Failed to send message', async () => {
    await client.route('**/api/messages', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await composer.getByLabel('Message', { exact: true }).fill('This one fails');
    await dismissToasts(client);
    await composer.getByRole('button', { name: 'Send' }).click();
    await expect(client.getByRole('alert').filter({ hasText: 'Failed to send message' })).toBeVisible();
    await expect(composer.getByLabel('Message', { exact: true })).toHaveValue('This one fails');
  });
  await client.context().close();
});

test('the thread falls back to polling when the live stream is unavailable', async ({ browser, page }) => {
  const setup = await setUpThread(page, 'poll');
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: E2E_BASE_URL });
  const client = await context.newPage();
  await signInAs(client, { role: 'client', account: setup.client });
  // The stream is cut off, as by a proxy that drops long requests.
  await client.route('**/api/messages/stream', (route) => route.abort());
  await client.clock.install();
  await client.goto(clientUrl(setup));
  await expect(section(client).getByText('No messages yet. Start the conversation!')).toBeVisible();
  const sent = await page.request.post('/api/messages', { data: { text: 'Polled message', projectId: setup.project._id }, headers: ORIGIN });
  expect(sent.status()).toBe(201);
  await client.clock.fastForward(11_000);
  await expect(thread(client).getByRole('article')).toContainText('Polled message');
  await context.close();
});

test('the communication section is accessible and readable on phones and desktops, light and dark', async ({ browser, page }) => {
  // Eight signed-in pages with axe each: room for a loaded machine.
  test.setTimeout(240_000);
  const setup = await setUpThread(page, 'look');
  // A thread with both sides, an unread message and attachments, made through the API.
  const png = await samplePng(800, 600);
  const up = await page.request.post('/api/messages/upload', {
    multipart: { name: 'crane.png', mimeType: 'image/png', file: { name: 'crane.png', mimeType: 'image/png', buffer: png } },
    headers: ORIGIN,
  });
  expect(up.status()).toBe(201);
  const staffSent = await page.request.post('/api/messages', {
    data: { subject: 'Subject: Crane schedule', text: 'The crane arrives on Tuesday at 08:00. Please keep the access road clear.', projectId: setup.project._id, attachments: [(await up.json()).file] },
    headers: ORIGIN,
  });
  expect(staffSent.status()).toBe(201);
  const clientView = await clientPage(browser, setup);
  const clientSent = await clientView.request.post('/api/messages', {
    data: { subject: 'Re: Crane schedule', text: 'Noted, the road will be clear.', projectId: setup.project._id },
    headers: ORIGIN,
  });
  expect(clientSent.status()).toBe(201);
  await clientView.context().close();
  mkdirSync(SHOTS, { recursive: true });

  for (const theme of ['light', 'dark'] as const) {
    for (const viewport of [PHONE, DESKTOP]) {
      for (const role of ['admin', 'client'] as const) {
        const context = await browser.newContext({ viewport, baseURL: E2E_BASE_URL });
        const p = await context.newPage();
        await presetTheme(p, theme);
        await signInAs(p, role === 'admin' ? { role, account: setup.admin } : { role, account: setup.client });
        await p.goto(role === 'admin' ? adminUrl(setup) : clientUrl(setup));
        await expect(thread(p).getByRole('article')).toHaveCount(2);
        await section(p).scrollIntoViewIfNeeded();
        await expectNoAxeViolations(p, `${role} ${theme} ${viewport.width}`);
        await section(p).screenshot({ path: `${SHOTS}/${role}-${theme}-${viewport.width}.png` });
        if (role === 'client') {
          await thread(p).getByRole('button', { name: 'Preview crane.png' }).click();
          await expect(p.getByRole('dialog', { name: 'crane.png' }).getByRole('img')).toBeVisible();
          await expectNoAxeViolations(p, `preview ${theme} ${viewport.width}`);
          await p.screenshot({ path: `${SHOTS}/preview-${theme}-${viewport.width}.png` });
        }
        await context.close();
      }
    }
  }
});
