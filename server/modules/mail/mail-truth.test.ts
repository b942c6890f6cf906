import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWSLETTER_MESSAGES } from '../../../common/newsletter.ts';
import { FORGOT_PASSWORD_ANSWER, FORGOT_PASSWORD_NO_MAIL } from '../../../common/schemas/auth.ts';
import { VENDOR_MESSAGES } from '../../../common/schemas/vendors.ts';
import { formToken, multipartBody } from '../../../tests/helpers/forms.ts';
import { SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { startSmtpServer, type TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { createUser, type TestApp } from '../../../tests/helpers/test-app.ts';
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY_BASE_MS, retryPendingMail } from '../../mail/mailer.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';

// Issue 21: what the screens say about mail is what really happened. Without SMTP_URL mail only goes
// to the outbox, so nobody is told that a mail was sent; with SMTP, a failed send is told to staff.

const VENDOR = {
  companyName: 'Delta Pipes',
  companyPhone: '+234 800 111 2222',
  companyAddress: '1 Wharf Road',
  companyEmail: 'vendor@delta.example',
  contactPersonName: 'Ngozi Okafor',
  businessType: 'Supplier',
  taxId: 'TIN-1234',
  registrationNumber: 'RC 123456',
  compliant: 'Yes',
  bankDetails: 'Bank X, 0123456789',
};

let ip = 1;
const nextIp = () => `198.51.100.${ip++ % 250}`;

async function submitVendor(t: TestApp) {
  const body = await multipartBody({ formToken: await formToken(t, 'vendor'), homepageUrl: '', ...VENDOR });
  return t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: nextIp() });
}
async function subscribe(t: TestApp, email: string) {
  const payload = { email, formToken: await formToken(t, 'newsletter'), homepageUrl: '' };
  return t.app.inject({ method: 'POST', url: '/api/newsletter/subscribe', payload, remoteAddress: nextIp() });
}
const forgot = (t: TestApp, identifier: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { identifier }, headers: { origin: SAME_ORIGIN }, remoteAddress: nextIp() });
const mailStatus = async (t: TestApp, admin: Actor) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/mail/status', headers: admin.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const addClient = (t: TestApp, admin: Actor, payload: object) => t.app.inject({ method: 'POST', url: '/api/users/clients', headers: admin.headers, payload });

describe('without a mail transport (no SMTP_URL, the default)', () => {
  let t: TestApp;
  let admin: Actor;
  beforeAll(async () => ({ t, admin } = await appWithAdmin()));
  afterAll(() => t?.close());

  it('tells staff the invitation was not e-mailed, on creating a client and on resending', async () => {
    const created = await addClient(t, admin, { name: 'Tolu Bello', email: 'tolu@example.test' });
    expect(created.statusCode).toBe(201);
    expect(created.json().invitationMail).toBe('not-configured');
    const resent = await t.app.inject({ method: 'POST', url: `/api/auth/invitations/${created.json().client._id}`, headers: admin.headers });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().mail).toBe('not-configured');
  });

  it('answers the dashboard banner: not configured, with the mails waiting in the outbox', async () => {
    const before = await mailStatus(t, admin);
    expect(before).toMatchObject({ success: true, configured: false, failed: 0 });
    await addClient(t, admin, { name: 'Kemi Ade', email: 'kemi@example.test' });
    expect((await mailStatus(t, admin)).waiting).toBe(before.waiting + 1);
  });

  it("promises the vendor no copy, the subscriber no confirmation mail, and 'Forgot password?' no link", async () => {
    const vendor = await submitVendor(t);
    expect(vendor.statusCode).toBe(200);
    expect(vendor.json()).toMatchObject({ message: VENDOR_MESSAGES.submitted, copy: 'none' });

    const sub = await subscribe(t, 'reader@example.test');
    expect(sub.statusCode).toBe(200);
    expect(sub.json().message).toBe(NEWSLETTER_MESSAGES.noMail);
    expect(sub.json().message).not.toMatch(/check your inbox/i);

    const client = await createUser(t, { role: 'client' });
    const real = await forgot(t, client.username!);
    const ghost = await forgot(t, 'ghost@example.test');
    expect(real.json().message).toBe(FORGOT_PASSWORD_NO_MAIL);
    // Still the same answer whether or not the account exists.
    expect(real.body).toBe(ghost.body);
  });

  it('says on the admin login that the sign-in is open to any address while ADMIN_ALLOWED_CIDRS is empty', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/setup/status' });
    expect(res.json()).toMatchObject({ success: true, addressRestricted: false });
  });
});

describe('with a mail transport', () => {
  let smtp: TestSmtpServer;
  let t: TestApp;
  let admin: Actor;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ t, admin } = await appWithAdmin({ SMTP_URL: smtp.url, ADMIN_ALLOWED_CIDRS: '127.0.0.0/8' }));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('says the invitation was sent when it was, and that it failed when the server refused it', async () => {
    const sent = await addClient(t, admin, { name: 'Ada Eze', email: 'ada@example.test' });
    expect(sent.json().invitationMail).toBe('sent');

    smtp.failNext(MAIL_MAX_ATTEMPTS);
    const refused = await addClient(t, admin, { name: 'Obi Nnamdi', email: 'obi@example.test' });
    expect(refused.statusCode).toBe(201);
    expect(refused.json().invitationMail).toBe('failed');
    expect(await mailStatus(t, admin)).toMatchObject({ configured: true, waiting: 1, failed: 0 });

    // Every retry fails too: the banner counts it as failed for good.
    for (let i = 1; i < MAIL_MAX_ATTEMPTS; i++) {
      t.clock.advance(MAIL_RETRY_BASE_MS * 2 ** i);
      await retryPendingMail(t.app);
    }
    expect(await mailStatus(t, admin)).toMatchObject({ configured: true, waiting: 0, failed: 1 });
  });

  it("keeps the visitors' promises when mail does leave", async () => {
    const vendor = await submitVendor(t);
    expect(vendor.json().copy).toBe('sent');
    expect((await subscribe(t, 'reader@example.test')).json().message).toBe(NEWSLETTER_MESSAGES.checkInbox);
    expect((await forgot(t, 'nobody@example.test')).json().message).toBe(FORGOT_PASSWORD_ANSWER);
  });

  it('keeps the specification sentence on the admin login when an address list is set', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/setup/status' });
    expect(res.json()).toMatchObject({ success: true, addressRestricted: true });
  });
});
