import type { Page } from '@playwright/test';
import { company } from '../../common/content/company.ts';
import { E2E_BASE_URL } from '../../playwright.config.ts';
import { DESKTOP, expect, expectNoAxeViolations, screenshotEveryLook, signInAs, test } from './fixtures.ts';
import { adminThreadUrl, clientThreadUrl, setUpThread } from './message-setup.ts';

// Decision 281: every message names the person who wrote it (staff with the company), the unread
// badge is the reader's own, and staff see which person of the client read their message.

const ORIGIN = { origin: E2E_BASE_URL };
const SHOTS = process.env.MESSAGES_SHOTS_DIR ?? 'test-results/message-authors-shots';
const section = (page: Page) => page.getByRole('region', { name: /^Project Communication/ });
const thread = (page: Page) => page.getByRole('region', { name: 'Message thread' });
const message = (page: Page, text: string) => thread(page).getByRole('article').filter({ hasText: text });

test('the thread names each author, the badge clears for the reader, staff see who read', async ({ browser, page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize(DESKTOP);
  const setup = await setUpThread(page, 'authors');
  for (const text of ['Piling starts on Monday', 'The crane arrives on Tuesday']) {
    expect((await page.request.post('/api/messages', { data: { subject: 'Schedule', text, projectId: setup.project._id }, headers: ORIGIN })).status()).toBe(201);
  }
  const context = await browser.newContext({ viewport: DESKTOP, baseURL: E2E_BASE_URL });
  const client = await context.newPage();
  await signInAs(client, { role: 'client', account: setup.client });
  expect((await client.request.post('/api/messages', { data: { text: 'Thank you, we will be on site', projectId: setup.project._id }, headers: ORIGIN })).status()).toBe(201);
  await client.goto(clientThreadUrl(setup));

  await test.step('the client sees who wrote each message, by name and to screen readers', async () => {
    const staffNote = message(client, 'Piling starts on Monday');
    await expect(staffNote.getByTestId('message-author')).toHaveText(`${setup.admin.name}, ${company.shortName} to ${setup.client.name}`);
    await expect(staffNote).toHaveAccessibleName(`Message from ${setup.admin.name} of ${company.shortName}, unread`);
    await expect(message(client, 'Thank you, we will be on site').getByTestId('message-author')).toHaveText(`${setup.client.name} to ${company.name}`);
    await expect(section(client).getByText('2 unread', { exact: true })).toBeVisible();
    await expectNoAxeViolations(client, 'client thread with authors');
  });

  await test.step("the reader's badge clears as they read", async () => {
    await message(client, 'Piling starts on Monday').getByRole('button', { name: 'Mark as read' }).click();
    await expect(section(client).getByText('1 unread', { exact: true })).toBeVisible();
    await message(client, 'The crane arrives on Tuesday').getByRole('button', { name: 'Mark as read' }).click();
    await expect(section(client).getByText(/\d+ unread/)).toHaveCount(0);
    await expect(message(client, 'Piling starts on Monday')).toHaveAccessibleName(`Message from ${setup.admin.name} of ${company.shortName}`);
  });

  await test.step('staff see the author names and which person of the client read their messages', async () => {
    await page.goto(adminThreadUrl(setup));
    const staffNote = message(page, 'Piling starts on Monday');
    await expect(staffNote.getByText(`Read by ${setup.client.name}`, { exact: true })).toBeVisible();
    await expect(message(page, 'Thank you, we will be on site')).toHaveAccessibleName(`Message from ${setup.client.name}, unread`);
    await expectNoAxeViolations(page, 'staff thread with authors and receipts');
  });

  await test.step('screenshots at phone and desktop width, light and dark', async () => {
    for (const [who, name] of [
      [client, 'client-thread'],
      [page, 'staff-thread'],
    ] as const) {
      await screenshotEveryLook(who, name, (file) => `${SHOTS}/${file}`, async () => {
        await thread(who).scrollIntoViewIfNeeded();
        await expect(message(who, 'Piling starts on Monday')).toBeVisible();
      });
    }
  });
  await context.close();
});
