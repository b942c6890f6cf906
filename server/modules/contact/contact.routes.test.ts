import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FORM_MIN_FILL_MS } from '../../../common/form-guard.ts';
import { contactMessages } from '../../db/schema/contact.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { formToken } from '../../../tests/helpers/forms.ts';
import type { TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';

const STAFF = 'hello-staff@example.test';
const ORIGIN = 'http://localhost:3000';
const MESSAGE = { name: 'Tunde <Bako>', email: 'tunde@example.test', phone: '+234 800 555 0000', company: 'Bako & Sons', message: 'We need a quote\nfor a jetty.' };

let smtp: TestSmtpServer;
let t: TestApp;
let adminUser: { id: string };
let ipCounter = 1;

async function send(body: Record<string, unknown>, options: { ip?: string; token?: string | null } = {}) {
  const token = options.token === undefined ? await formToken(t, 'contact') : options.token;
  return t.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: { ...(token === null ? {} : { formToken: token }), homepageUrl: '', ...body },
    remoteAddress: options.ip ?? `198.51.100.${ipCounter++}`,
  });
}
async function asAdmin(method: 'GET' | 'PUT', url: string, payload?: object) {
  const { cookie } = await signIn(t, adminUser, 'admin');
  return t.app.inject({ method, url, payload, headers: { cookie, origin: ORIGIN } });
}
const stored = async () => (await t.database.db.select({ n: count() }).from(contactMessages))[0].n;
const mails = async () => (await t.database.db.select({ n: count() }).from(mailOutbox))[0].n;

beforeAll(async () => {
  ({ t, smtp } = await appWithSmtp({ STAFF_EMAIL: STAFF }));
  adminUser = await createUser(t, { role: 'admin' });
});
afterAll(() => t?.close());
beforeEach(() => smtp.clear());

describe('contact form', () => {
  it('stores the message and mails staff with every field, replying to the visitor', async () => {
    const res = await send(MESSAGE);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: "We'll get back to you within 24 hours." });
    const [row] = await t.database.db.select().from(contactMessages);
    expect(row).toMatchObject({ ...MESSAGE, isRead: false });
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes(STAFF));
    expect(mail.subject).toBe('New contact message from Tunde <Bako> (Bako & Sons)');
    for (const field of ['tunde@example.test', '+234 800 555 0000', 'We need a quote']) expect(mail.text).toContain(field);
    expect(mail.html).toContain('Tunde &lt;Bako&gt;');
    expect(mail.html).toContain('We need a quote<br>for a jetty.');
    expect(mail.headers['reply-to']).toContain('tunde@example.test');
  });

  it('needs name, email and message; phone and company are optional', async () => {
    const before = await stored();
    expect((await send({ ...MESSAGE, name: ' ' })).json().message).toBe('body.name: Please enter your name');
    expect((await send({ ...MESSAGE, email: '' })).json().message).toBe('body.email: Please enter your email address');
    expect((await send({ ...MESSAGE, email: 'nope' })).json().message).toBe('body.email: Please enter a valid email address');
    expect((await send({ ...MESSAGE, message: '' })).json().message).toBe('body.message: Please enter your message');
    expect(await stored()).toBe(before);
    const res = await send({ name: 'Ada', email: 'ada@example.test', message: 'Hi' });
    expect(res.statusCode).toBe(200);
    expect(await stored()).toBe(before + 1);
  });

  it('refuses a message over 5,000 characters and a body over its size limit', async () => {
    expect((await send({ ...MESSAGE, message: 'x'.repeat(5001) })).statusCode).toBe(400);
    const huge = await send({ ...MESSAGE, message: 'x'.repeat(40_000) });
    expect(huge.statusCode).toBe(413);
  });

  it('drops a bot that filled the honeypot without storing or mailing, and answers like a success', async () => {
    const [before, beforeMails] = [await stored(), await mails()];
    const token = await formToken(t, 'contact');
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', payload: { ...MESSAGE, formToken: token, homepageUrl: 'http://buy.example' } });
    expect(res.statusCode).toBe(200);
    expect(await stored()).toBe(before);
    expect(await mails()).toBe(beforeMails);
    expect(smtp.messages).toHaveLength(0);
  });

  it('refuses a message sent too fast or without a valid token', async () => {
    const before = await stored();
    const token = (await t.app.inject({ method: 'GET', url: '/api/form-token' })).json().token;
    t.clock.advance(FORM_MIN_FILL_MS.contact - 1);
    expect((await send(MESSAGE, { token })).json().message).toBe('That was very quick. Please check the form, then send it again.');
    expect((await send(MESSAGE, { token: null })).json().message).toBe('This form has expired. Please reload the page and try again.');
    expect(await stored()).toBe(before);
  });

  it('limits an address to five messages an hour with a clear message', async () => {
    t.clock.set(new Date('2026-11-24T10:00:00Z'));
    const ip = '203.0.113.9';
    for (let i = 0; i < 5; i++) expect((await send(MESSAGE, { ip })).statusCode).toBe(200);
    const before = await stored();
    const res = await send(MESSAGE, { ip });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many submissions from your network\. Please try again in \d+ minutes, or write to us by e-mail\.$/);
    expect(await stored()).toBe(before);
  });
});

describe('contact inbox', () => {
  it('lists messages newest first with unread counts, filters, and marks read and unread', async () => {
    const all = (await asAdmin('GET', '/api/contact/messages')).json();
    expect(all.total).toBeGreaterThan(2);
    const times = all.messages.map((m: { createdAt: string }) => m.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(all.unread).toBe(all.total);
    const first = all.messages[0];
    const read = await asAdmin('PUT', `/api/contact/messages/${first._id}/read`, { isRead: true });
    expect(read.statusCode).toBe(200);
    expect(read.json().message).toMatchObject({ _id: first._id, isRead: true });
    const unread = (await asAdmin('GET', '/api/contact/messages?filter=unread')).json();
    expect(unread.total).toBe(all.total - 1);
    expect(unread.unread).toBe(all.total - 1);
    const readList = (await asAdmin('GET', '/api/contact/messages?filter=read')).json();
    expect(readList.messages.map((m: { _id: string }) => m._id)).toEqual([first._id]);
    expect((await asAdmin('GET', '/api/submissions/counts')).json().unreadMessages).toBe(all.total - 1);
    await asAdmin('PUT', `/api/contact/messages/${first._id}/read`, { isRead: false });
    expect((await asAdmin('GET', '/api/contact/messages?filter=read')).json().total).toBe(0);
  });

  it('answers 404 for a message that does not exist', async () => {
    const res = await asAdmin('PUT', '/api/contact/messages/00000000-0000-4000-8000-000000000000/read', { isRead: true });
    expect(res.statusCode).toBe(404);
  });

  it('keeps visitors and clients out of the inbox', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/contact/messages' })).statusCode).toBe(401);
    const { cookie } = await signIn(t, await createUser(t, { role: 'client' }), 'client');
    expect((await t.app.inject({ method: 'GET', url: '/api/contact/messages', headers: { cookie } })).statusCode).toBe(403);
  });
});

describe('contact behind our own proxy', () => {
  let proxied: TestApp;
  beforeAll(async () => {
    proxied = await createTestApp({ SMTP_URL: smtp.url, STAFF_EMAIL: STAFF, TRUSTED_PROXY_CIDRS: '10.1.0.0/16' });
  });
  afterAll(async () => proxied.close());

  async function viaProxy(forwardedFor: string, peer = '10.1.0.2') {
    const token = await formToken(proxied, 'contact');
    return proxied.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { formToken: token, homepageUrl: '', ...MESSAGE },
      remoteAddress: peer,
      headers: { 'x-forwarded-for': forwardedFor },
    });
  }

  it('gives every visitor their own five messages an hour, and ignores what a visitor writes in X-Forwarded-For', async () => {
    proxied.clock.set(new Date('2026-11-24T10:00:00Z'));
    // Two visitors behind the proxy: each has five, the proxy's own address does not pool them.
    for (let i = 0; i < 5; i++) expect((await viaProxy('203.0.113.20')).statusCode).toBe(200);
    expect((await viaProxy('203.0.113.20')).statusCode).toBe(429);
    expect((await viaProxy('203.0.113.21')).statusCode).toBe(200);
    // A visitor's own made-up hop in front is skipped: the proxy appended the real address last.
    expect((await viaProxy('198.51.100.77, 203.0.113.20')).statusCode).toBe(429);
    // A caller that is not our proxy cannot choose its address by writing the header.
    for (let i = 0; i < 5; i++) expect((await viaProxy(`192.0.2.${i + 1}`, '198.51.100.200')).statusCode).toBe(200);
    expect((await viaProxy('192.0.2.99', '198.51.100.200')).statusCode).toBe(429);
    // The message records the visitor's address, not the proxy's.
    const [row] = await proxied.database.db.select({ ip: contactMessages.ip }).from(contactMessages).where(eq(contactMessages.ip, '203.0.113.21'));
    expect(row?.ip).toBe('203.0.113.21');
  });
});
