import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { E2E_MAIL_DIR } from '../../playwright.config.ts';
import { PATHS } from '../../common/paths.ts';
import { company } from '../../common/content/company.ts';
import { waitForMailInDir, type ReceivedMail } from '../helpers/smtp-server.ts';
import { checkEveryLook, DESKTOP, PHONE, expect, expectNoAxeViolations, signInAs, test, useTheme } from './fixtures.ts';

// What visitors send, end to end: the public forms after hydration, the staff review pages, and the
// newsletter's double opt-in through the mail the server really delivered (local SMTP server).

const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n'), Buffer.alloc(3000, 0x20), Buffer.from('\n%%EOF\n')]);
const unique = () => randomBytes(3).toString('hex');

/** Opens a page with a public form and waits until the form runs (its submit button is disabled before). */
async function openForm(page: Page, path: string, where: 'main' | 'footer' = 'main') {
  await page.goto(path);
  await expect(page.locator(`${where} form[data-ready="true"]`)).toBeVisible();
}

/** A text field by its accessible name (the required mark '*' is hidden from it). */
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

function toastWith(page: Page, title: string) {
  // Toast items are live regions (role status or alert), not list items.
  return page.getByRole('region', { name: 'Notifications' }).locator('li').filter({ hasText: title });
}

/** The company's address of a test's application: its own, as acknowledgements are limited per recipient (decision 116). */
const vendorEmailOf = (company: string) => `tenders-${company.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@vendor.example`;

async function fillVendorForm(page: Page, company: string) {
  await field(page, 'Company name').fill(company);
  await field(page, 'Company phone').fill('+234 800 123 4567');
  await field(page, 'Company email').fill(vendorEmailOf(company));
  await field(page, 'Company address').fill('5 Creek Road\nPort Harcourt');
  await field(page, 'Contact person name').fill('Ifeoma Eze');
  await field(page, 'Contact person email').fill('ifeoma@vendor.example');
  await field(page, 'Business type').fill('Supplier of valves');
  await field(page, 'Tax ID').fill('TIN-55501');
  await field(page, 'Registration number').fill('RC 765432');
  await page.getByRole('radio', { name: 'Yes' }).check();
  await field(page, 'Certifications').fill('ISO 9001:2015');
  await field(page, 'Bank details').fill('Example Bank, 0123456789');
}

async function mailFor(to: string, subjectStart: string): Promise<ReceivedMail> {
  return waitForMailInDir(E2E_MAIL_DIR, (m) => m.envelopeTo.some((a) => a.toLowerCase() === to.toLowerCase()) && m.subject.startsWith(subjectStart));
}

function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://\\S+${path.replace(/\//g, '\\/')}\\?token=[A-Za-z0-9_%-]+`).exec(mail.text);
  if (!match) throw new Error(`No ${path} link in the mail:\n${mail.text}`);
  return match[0];
}

test.describe('vendor registration', () => {
  test('a visitor registers as a vendor with documents; staff review it, move it along and download a document', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    const name = `Delta Valves ${unique()}`;
    await openForm(page, PATHS.vendorRegistration);
    for (const section of ['Company Information', 'Contact Person', 'Additional Information', 'Supporting Documents']) {
      await expect(page.getByRole('group', { name: section })).toBeVisible();
    }

    // Nothing filled in: the first required field is named in the specification's words.
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    await expect(toastWith(page, 'Validation Error')).toContainText('Please fill in the company name field');
    await expect(field(page, 'Company name')).toBeFocused();

    await fillVendorForm(page, name);
    await page.getByLabel('Certification files (up to 5)').setInputFiles([
      { name: 'iso-9001.pdf', mimeType: 'application/pdf', buffer: PDF },
      { name: 'permit.pdf', mimeType: 'application/pdf', buffer: PDF },
    ]);
    await page.getByLabel('Company profile (one file)').setInputFiles({ name: 'profile.pdf', mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByRole('list', { name: 'Chosen certification files' }).getByRole('listitem')).toHaveCount(2);

    await page.getByRole('button', { name: 'Submit Registration' }).click();
    await expect(page.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    await expect(toastWith(page, 'Success!')).toContainText('Your vendor registration has been submitted.');
    const reference = (await page.locator('form [role="status"] strong').textContent())!;
    expect(reference).toMatch(/^VR-\d{8}-[0-9A-Z]{6}$/);
    // The form starts over after a success.
    await expect(field(page, 'Company name')).toHaveValue('');

    // Staff were told, and the applicant got the reference.
    const staffMail = await mailFor('staff@localhost.test', `New Vendor Registration: ${name} `);
    expect(staffMail.subject).toBe(`New Vendor Registration: ${name} (${reference})`);
    const ack = await mailFor(vendorEmailOf(name), 'We received your vendor registration');
    expect(ack.text).toContain(reference);

    // Staff review.
    await signInAs(page, { role: 'admin', name: 'Review Staff' });
    await page.goto(PATHS.adminVendorApplications);
    await page.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await expect(page.getByText('ISO 9001:2015')).toBeVisible();
    await expect(page.getByText(reference)).toBeVisible();

    await page.getByRole('radio', { name: 'Under review' }).check();
    await page.getByLabel('Staff note').fill('Checking the tax certificate');
    await page.getByRole('button', { name: 'Update status' }).click();
    await expect(toastWith(page, 'Application status updated')).toBeVisible();
    await page.getByRole('radio', { name: 'Approved' }).check();
    await page.getByLabel('Staff note').fill('All documents in order');
    await page.getByRole('button', { name: 'Update status' }).click();
    const history = page.getByRole('list').filter({ hasText: 'Under review → Approved' });
    await expect(history).toContainText('All documents in order');
    await expect(history).toContainText('Review Staff');
    await expect(history).toContainText('New → Under review');

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download permit.pdf' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('permit.pdf');
    expect(readFileSync((await download.path())!).equals(PDF)).toBe(true);

    await checkEveryLook(page, 'vendor-application', (f) => testInfo.outputPath(f), () => expect(page.getByRole('heading', { name: 'History' })).toBeVisible());

    await page.goto(`${PATHS.adminVendorApplications}?status=approved`);
    await expect(page.getByRole('link', { name })).toBeVisible();
    await checkEveryLook(page, 'vendor-applications', (f) => testInfo.outputPath(f), () => expect(page.getByRole('link', { name })).toBeVisible());
  });

  test('a failed submission keeps what was typed and shows the server message', async ({ page }) => {
    await openForm(page, PATHS.vendorRegistration);
    await fillVendorForm(page, `Kept Ltd ${unique()}`);
    // A file that claims to be a PDF but is not one: the server checks the bytes.
    await page.getByLabel('Company profile (one file)').setInputFiles({ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('plain text pretending') });
    await page.getByRole('button', { name: 'Submit Registration' }).click();
    await expect(toastWith(page, 'Error')).toContainText('File fake.pdf is not an accepted type (PDF, Word, Excel, JPG or PNG)');
    await expect(field(page, 'Tax ID')).toHaveValue('TIN-55501');
    await expect(page.getByRole('list', { name: 'Chosen company profile' })).toContainText('fake.pdf');
  });

  test('the form refuses a company name with a right-to-left override before sending (decision 195)', async ({ page }, testInfo) => {
    const message = 'The company name field must not contain line breaks, invisible characters or text-direction controls (found U+202E)';
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    for (const [theme, viewport] of [['light', DESKTOP], ['dark', PHONE]] as const) {
      await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await page.setViewportSize(viewport);
      await openForm(page, PATHS.vendorRegistration);
      await fillVendorForm(page, `Disguise Ltd ${unique()}`);
      await field(page, 'Company name').fill('Acme\u202Egnp.exe');
      await page.getByRole('button', { name: 'Submit Registration' }).click();
      await expect(toastWith(page, 'Validation Error')).toContainText(message);
      await expect(field(page, 'Company name')).toBeFocused();
      await expect(field(page, 'Company name')).toHaveAttribute('aria-invalid', 'true');
      await page.screenshot({ path: testInfo.outputPath(`vendor-disguised-name-${theme}-${viewport.width}.png`) });
    }
    expect(posts.filter((url) => url.includes('/api/vendors'))).toEqual([]);
  });

  test('the form refuses a sixth certification and files over 10 MB before sending', async ({ page }) => {
    await openForm(page, PATHS.vendorRegistration);
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `c${i}.pdf`, mimeType: 'application/pdf', buffer: PDF }));
    await page.getByLabel('Certification files (up to 5)').setInputFiles(files);
    await expect(toastWith(page, 'Validation Error')).toContainText('You can upload a maximum of 5 certification files');
    await expect(page.getByRole('list', { name: 'Chosen certification files' }).getByRole('listitem')).toHaveCount(5);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    await page.getByLabel('Company profile (one file)').setInputFiles({ name: 'big.pdf', mimeType: 'application/pdf', buffer: big });
    await expect(toastWith(page, 'File Too Large')).toContainText('Company profile exceeds 10MB limit');
  });
});

test.describe('contact', () => {
  test('a message belongs to one attempt: the validation error goes when the message is sent (issue 21)', async ({ page }) => {
    await openForm(page, PATHS.contact);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(toastWith(page, 'Validation Error')).toContainText('Please enter your name');
    // The pointer rests on the toast (which holds it open, as a reader's would); the keyboard does the rest.
    await toastWith(page, 'Validation Error').hover();
    await field(page, 'Name').fill(`Ada ${unique()}`);
    await field(page, 'Email').fill('ada@client.example');
    await field(page, 'Message').fill('A second try, with every field.');
    await page.getByRole('button', { name: 'Send Message' }).press('Enter');
    await expect(toastWith(page, 'Message Sent Successfully!')).toBeVisible();
    await expect(toastWith(page, 'Validation Error')).toHaveCount(0);
  });

  test('a visitor sends a contact message; staff find it unread in the inbox and can reply by e-mail', async ({ page }, testInfo) => {
    // Story plus an axe and screenshot walk of every look: more than the default minute on a loaded CI machine.
    test.setTimeout(150_000);
    const sender = `Bisi ${unique()}`;
    await openForm(page, PATHS.contact);
    const main = page.getByRole('main');
    await expect(main.getByText(company.address)).toBeVisible();
    await expect(main.getByText(company.addressi)).toBeVisible();
    await expect(main.getByText(company.refineryAddress)).toBeVisible();
    await expect(main.getByText('24/7 support')).toBeVisible();
    await expect(field(page, 'Message')).toHaveAttribute('rows', '19');

    await field(page, 'Name').fill(sender);
    await field(page, 'Email').fill('bisi@client.example');
    await field(page, 'Company').fill('Bisi Builders');
    await field(page, 'Message').fill('Please quote for a 200 m jetty.');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(toastWith(page, 'Message Sent Successfully!')).toContainText("We'll get back to you within 24 hours.");
    await expect(field(page, 'Name')).toHaveValue('');
    await expect(field(page, 'Message')).toHaveValue('');
    const staffMail = await mailFor('staff@localhost.test', `New contact message from ${sender}`);
    expect(staffMail.text).toContain('Please quote for a 200 m jetty.');

    await signInAs(page, { role: 'admin' });
    await page.goto(`${PATHS.adminContactMessages}?filter=unread`);
    await expect(page.getByRole('button', { name: new RegExp(sender) })).toContainText('(unread)');
    await page.goto(PATHS.adminContactMessages);
    const item = page.getByRole('button', { name: new RegExp(sender) });
    await item.click();
    await expect(page.getByRole('link', { name: 'Reply by e-mail' })).toHaveAttribute('href', /^mailto:bisi@client\.example\?subject=/);
    // Opening it read it.
    await expect(item).toContainText('(read)');
    await page.goto(`${PATHS.adminContactMessages}?filter=unread`);
    await expect(page.getByRole('button', { name: new RegExp(sender) })).toHaveCount(0);
    await page.goto(PATHS.adminContactMessages);
    await checkEveryLook(page, 'contact-inbox', (f) => testInfo.outputPath(f), async () => {
      await page.getByRole('button', { name: new RegExp(sender) }).click();
      await expect(page.getByRole('link', { name: 'Reply by e-mail' })).toBeVisible();
    });
  });
});

test.describe('newsletter', () => {
  test('a subscription is confirmed through the link in the delivered e-mail, and the unsubscribe link works', async ({ page }, testInfo) => {
    // Story plus an axe and screenshot walk of every look: more than the default minute on a loaded CI machine.
    test.setTimeout(150_000);
    const email = `reader-${unique()}@news.example`;
    await openForm(page, PATHS.about, 'footer');
    const box = page.locator('footer');
    await box.getByLabel('Email address').fill(email);
    await box.getByRole('button', { name: 'Subscribe' }).click();
    await expect(box.getByRole('status')).toHaveText(
      'Almost done! Check your inbox and click the link in our e-mail to confirm your subscription.',
    );

    const confirmation = await mailFor(email, 'Please confirm your subscription');
    expect(confirmation.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    await page.goto(linkIn(confirmation, PATHS.newsletterConfirm));
    await expect(page.getByRole('main').getByRole('status')).toHaveText('Your subscription is confirmed. Thank you!');

    const welcome = await mailFor(email, 'Welcome to the');
    await page.goto(linkIn(welcome, PATHS.newsletterUnsubscribe));
    await expect(page.getByRole('main').getByRole('status')).toHaveText('You have been unsubscribed. You will not receive our newsletter any more.');

    await signInAs(page, { role: 'admin' });
    await page.goto(PATHS.adminNewsletterSubscribers);
    await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Unsubscribed');
    await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/api/newsletter/subscribers/export');
    await checkEveryLook(page, 'subscribers-list', (f) => testInfo.outputPath(f), () => expect(page.getByRole('row', { name: new RegExp(email) })).toBeVisible());
  });

  test('a broken confirmation link says what to do', async ({ page }) => {
    await page.goto(`${PATHS.newsletterConfirm}?token=${'x'.repeat(43)}`);
    await expect(page.getByRole('main').getByRole('status')).toHaveText(
      'This link is not valid or has expired. Please subscribe again from the box at the bottom of any page.',
    );
  });
});

// The public screens at phone and desktop sizes in both themes (the staff screens are checked in the stories above).
for (const theme of ['light', 'dark'] as const) {
  for (const viewport of [PHONE, DESKTOP]) {
    test(`the public form screens are axe-clean in the ${theme} theme at ${viewport.width}px`, async ({ page }, testInfo) => {
      // Story plus an axe and screenshot walk of every look: more than the default minute on a loaded CI machine.
      test.setTimeout(150_000);
      await useTheme(page, theme);
      await page.setViewportSize(viewport);
      const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}-${theme}-${viewport.width}.png`), fullPage: true });

      await openForm(page, PATHS.vendorRegistration);
      await page.getByRole('button', { name: 'Submit Registration' }).click();
      await expect(toastWith(page, 'Validation Error')).toBeVisible();
      await expectNoAxeViolations(page, 'vendor registration');
      await shot('vendor-registration');

      await openForm(page, PATHS.contact);
      await expectNoAxeViolations(page, 'contact');
      await shot('contact');

      await page.goto(`${PATHS.newsletterUnsubscribe}?token=${'y'.repeat(43)}`);
      await expect(page.getByRole('main').getByRole('status')).toContainText('This link is not valid');
      await expectNoAxeViolations(page, 'newsletter landing');
      await shot('newsletter-landing');

      await signInAs(page, { role: 'admin' });
      await page.goto(PATHS.adminNewsletterSubscribers);
      await expect(page.getByRole('heading', { name: /^Subscribers/, level: 2 })).toBeVisible();
      await expectNoAxeViolations(page, 'subscribers');
      await shot('subscribers');
    });
  }
}
