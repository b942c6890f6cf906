import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { E2E_MAIL_DIR } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { readMailDir, waitForMailInDir, type ReceivedMail } from '../helpers/smtp-server.ts';
import { checkEveryLook, DESKTOP, expect, signInAs, test } from './fixtures.ts';

// Staff send a newsletter end to end: subscribers confirmed through the real mails, a test to the
// staff member, the confirmation naming the number, the mails as the local SMTP server got them.

const unique = () => randomBytes(3).toString('hex');
const sentTo = (m: ReceivedMail, email: string) => m.envelopeTo.some((a) => a.toLowerCase() === email.toLowerCase());
const mailFor = (email: string, subject: string) => waitForMailInDir(E2E_MAIL_DIR, (m) => sentTo(m, email) && m.subject.startsWith(subject));

function toastWith(page: Page, title: string) {
  return page.getByRole('region', { name: 'Notifications' }).locator('li').filter({ hasText: title });
}

/** Subscribes through the footer box; confirms through the link of the delivered mail unless told not to. */
async function subscribe(page: Page, email: string, confirm = true) {
  await page.goto(PATHS.about);
  const footer = page.locator('footer');
  await expect(footer.locator('form[data-ready="true"]')).toBeVisible();
  await footer.getByLabel('Email address').fill(email);
  await footer.getByRole('button', { name: 'Subscribe' }).click();
  await expect(footer.getByRole('status')).toContainText('Check your inbox');
  if (!confirm) return;
  const mail = await mailFor(email, 'Please confirm your subscription');
  const link = new RegExp(`https?://\\S+${PATHS.newsletterConfirm}\\?token=[A-Za-z0-9_%-]+`).exec(mail.text)![0];
  await page.goto(link);
  await expect(page.getByRole('main').getByRole('status')).toHaveText('Your subscription is confirmed. Thank you!');
}

test('staff write a newsletter, send a test to themselves, send it to the confirmed subscribers after a confirmation naming them, and see it in the sent list', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const id = unique();
  const readers = [`reader-a-${id}@news.example`, `reader-b-${id}@news.example`];
  const waiting = `reader-waiting-${id}@news.example`;
  for (const email of readers) await subscribe(page, email);
  await subscribe(page, waiting, false);

  const admin = await signInAs(page, { role: 'admin', name: `Amaka Editor ${id}` });
  await page.setViewportSize(DESKTOP);
  await page.goto(PATHS.adminNewsletterSubscribers);
  await page.getByRole('link', { name: 'Newsletter', exact: true }).click();
  await expect(page).toHaveURL(PATHS.adminNewsletter);
  await expect(page.getByRole('heading', { name: 'Newsletter', level: 1 })).toBeVisible();

  // Nothing written yet: the test button names what is missing and puts the cursor there.
  await page.getByRole('button', { name: 'Send a test to me' }).click();
  const subject = page.getByRole('textbox', { name: 'Subject' });
  await expect(subject).toBeFocused();
  await expect(subject).toHaveAccessibleDescription(/Please enter a subject/);

  const title = `Yard news ${id}`;
  await subject.fill(title);
  await page.getByRole('textbox', { name: 'Newsletter text' }).fill('The crane pad is <b>finished</b>.\n\nNext month: the new jetty.');

  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(toastWith(page, 'Test sent')).toContainText(`A test was sent to ${admin.email}.`);
  const testMail = await mailFor(admin.email, `[Test] ${title}`);
  expect(testMail.envelopeTo).toEqual([admin.email]);
  expect(testMail.html).toContain('The crane pad is &lt;b&gt;finished&lt;/b&gt;.</p>');

  // The button and the dialog name the confirmed subscribers the server counts right now.
  const { confirmedSubscribers } = await (await page.request.get('/api/newsletter/issues')).json();
  expect(confirmedSubscribers).toBeGreaterThanOrEqual(readers.length);
  const label = `Send to ${confirmedSubscribers} subscribers`;
  await page.getByRole('button', { name: label }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this newsletter?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleDescription(`It goes to ${confirmedSubscribers} subscribers now and cannot be called back.`);
  await expect(dialog).toContainText(title);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: label })).toBeFocused();

  await page.getByRole('button', { name: label }).click();
  await dialog.getByRole('button', { name: label }).click();
  await expect(toastWith(page, 'Newsletter sent')).toContainText(`The newsletter is on its way to ${confirmedSubscribers} subscribers.`);
  await expect(dialog).toBeHidden();
  await expect(subject).toHaveValue('');

  const sent = page.getByRole('table', { name: 'Sent newsletters, newest first' });
  await expect(sent.getByRole('columnheader')).toHaveText(['Subject', 'Sent', 'Sent by', 'Recipients']);
  const row = sent.getByRole('row').filter({ hasText: title });
  await expect(row.getByRole('cell')).toHaveText([title, /\d{4}/, `Amaka Editor ${id}`, String(confirmedSubscribers)]);
  await expect(sent.getByRole('row').nth(1)).toContainText(title);

  // Each confirmed reader got it, with their own one-click unsubscribe link; the unconfirmed one did not.
  const mails = await Promise.all(readers.map((email) => mailFor(email, title)));
  for (const mail of mails) {
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const header = /^<(https?:\/\/\S+\/api\/newsletter\/unsubscribe\?token=([A-Za-z0-9_%-]+))>$/.exec(mail.headers['list-unsubscribe'])!;
    expect(mail.text).toContain(`${PATHS.newsletterUnsubscribe}?token=${header[2]}`);
  }
  expect(mails[0].headers['list-unsubscribe']).not.toBe(mails[1].headers['list-unsubscribe']);
  await expect.poll(() => readMailDir(E2E_MAIL_DIR).filter((m) => m.subject === title).length, { timeout: 15_000 }).toBe(confirmedSubscribers);
  expect(readMailDir(E2E_MAIL_DIR).some((m) => m.subject === title && sentTo(m, waiting))).toBe(false);

  await checkEveryLook(page, 'newsletter', (f) => testInfo.outputPath(f), () => expect(row).toBeVisible());

  // The confirmation dialog, in every look.
  await checkEveryLook(page, 'newsletter-confirm', (f) => testInfo.outputPath(f), async () => {
    await page.getByRole('textbox', { name: 'Subject' }).fill('Looks check');
    await page.getByRole('textbox', { name: 'Newsletter text' }).fill('Only looking.');
    await page.getByRole('button', { name: label }).click();
    await expect(dialog).toBeVisible();
  });
});
