import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { formToken } from '../../../tests/helpers/forms.ts';
import type { ReceivedMail, TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { NEWSLETTER_REQUEST_MAIL_INTERVAL_MS } from './newsletter.service.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';

const CHECK_INBOX = 'Almost done! Check your inbox and click the link in our e-mail to confirm your subscription.';
const ORIGIN = 'http://localhost:3000';

let smtp: TestSmtpServer;
let t: TestApp;
let ipCounter = 1;

async function subscribe(email: string, options: { ip?: string; honeypot?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/newsletter/subscribe',
    payload: { email, formToken: await formToken(t, 'newsletter'), homepageUrl: options.honeypot ?? '' },
    remoteAddress: options.ip ?? `198.51.100.${ipCounter++}`,
  });
}
const subscriber = async (email: string) =>
  (await t.database.db.select().from(newsletterSubscribers).where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`))[0];
const linkIn = (mail: ReceivedMail, path: string) => {
  const match = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?token=[A-Za-z0-9_%-]+`).exec(mail.text);
  if (!match) throw new Error(`No ${path} link in:\n${mail.text}`);
  return new URL(match[0]);
};
// Mail servers may change the case of the domain; people's addresses compare without case.
const sentTo = (m: ReceivedMail, email: string) => m.envelopeTo.some((to) => to.toLowerCase() === email.toLowerCase());
const mailsTo = (email: string) => smtp.messages.filter((m) => sentTo(m, email));

beforeAll(async () => ({ t, smtp } = await appWithSmtp({ PUBLIC_URL: 'https://www.site.example' })));
afterAll(() => t?.close());
beforeEach(() => smtp.clear());

describe('newsletter double opt-in', () => {
  it('mails a confirmation link; the link confirms the subscription and a welcome mail follows', async () => {
    const res = await subscribe('Ada@Example.test');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: CHECK_INBOX });
    expect(await subscriber('ada@example.test')).toMatchObject({ status: 'pending', confirmedAt: null });

    const mail = await smtp.waitForMail((m) => sentTo(m, 'ada@example.test'));
    expect(mail.subject).toBe('Please confirm your subscription to the Kora Delta newsletter');
    const link = linkIn(mail, '/newsletter/confirm');
    expect(link.origin).toBe('https://www.site.example');
    expect(mail.html).toContain(`href="${link.href}"`);

    const confirmed = await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: link.searchParams.get('token') } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe('Your subscription is confirmed. Thank you!');
    expect(await subscriber('ada@example.test')).toMatchObject({ status: 'subscribed', confirmedAt: t.clock.now() });
    const welcome = await smtp.waitForMail((m) => m.subject === 'Welcome to the Kora Delta newsletter');
    expect(sentTo(welcome, 'ada@example.test')).toBe(true);

    // Clicking the link again is harmless and sends nothing more.
    const again = await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: link.searchParams.get('token') } });
    expect(again.statusCode).toBe(200);
    expect(mailsTo('ada@example.test')).toHaveLength(2);
  });

  it('puts a one-click unsubscribe link and RFC 8058 headers in every newsletter mail', async () => {
    await subscribe('bo@example.test');
    const confirmation = await smtp.waitForMail((m) => m.envelopeTo.includes('bo@example.test'));
    await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: linkIn(confirmation, '/newsletter/confirm').searchParams.get('token') } });
    const welcome = await smtp.waitForMail((m) => m.envelopeTo.includes('bo@example.test') && m.subject.startsWith('Welcome'));
    for (const mail of [confirmation, welcome]) {
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      expect(mail.headers['list-unsubscribe']).toMatch(/^<https:\/\/www\.site\.example\/api\/newsletter\/unsubscribe\?token=[A-Za-z0-9_-]+>$/);
      expect(linkIn(mail, '/newsletter/unsubscribe').origin).toBe('https://www.site.example');
    }

    // What a mail program does with the header: a form post with List-Unsubscribe=One-Click, no cookie.
    const oneClick = new URL(welcome.headers['list-unsubscribe'].slice(1, -1));
    const res = await t.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBe(200);
    expect(await subscriber('bo@example.test')).toMatchObject({ status: 'unsubscribed', unsubscribedAt: t.clock.now() });
  });

  it('unsubscribes from the page link (JSON token) and says so again on a second click', async () => {
    await subscribe('cy@example.test');
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes('cy@example.test'));
    const token = linkIn(mail, '/newsletter/unsubscribe').searchParams.get('token');
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe', payload: { token } });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('You have been unsubscribed. You will not receive our newsletter any more.');
    }
    expect((await subscriber('cy@example.test')).status).toBe('unsubscribed');
    // A confirmation link from before the unsubscribe is not a new consent.
    const stale = await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: linkIn(mail, '/newsletter/confirm').searchParams.get('token') } });
    expect(stale.statusCode).toBe(404);
  });

  it('answers unknown and expired links with 404 and a message saying what to do', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: 'x'.repeat(43) } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This link is not valid or has expired. Please subscribe again from the box at the bottom of any page.');
    expect((await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe', payload: { token: 'y'.repeat(43) } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe', payload: {} })).statusCode).toBe(404);

    await subscribe('dee@example.test');
    const mail = await smtp.waitForMail((m) => m.envelopeTo.includes('dee@example.test'));
    t.clock.advance(7 * 24 * 60 * 60_000 + 1);
    const expired = await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: linkIn(mail, '/newsletter/confirm').searchParams.get('token') } });
    expect(expired.statusCode).toBe(404);
    expect((await subscriber('dee@example.test')).status).toBe('pending');
  });

  it('is quietly fine with subscribing twice, and mails an address at most once per interval', async () => {
    expect((await subscribe('eve@example.test')).json().message).toBe(CHECK_INBOX);
    expect((await subscribe('EVE@example.test')).json().message).toBe(CHECK_INBOX);
    await smtp.waitForMail((m) => m.envelopeTo.includes('eve@example.test'));
    expect(mailsTo('eve@example.test')).toHaveLength(1);
    expect(await t.database.db.select().from(newsletterSubscribers).where(sql`lower(${newsletterSubscribers.email}) = 'eve@example.test'`)).toHaveLength(1);

    // After the interval, asking again mails a fresh confirmation link (it replaces the first).
    t.clock.advance(NEWSLETTER_REQUEST_MAIL_INTERVAL_MS);
    await subscribe('eve@example.test');
    await expect.poll(() => mailsTo('eve@example.test').length).toBe(2);
    const latest = mailsTo('eve@example.test')[1];
    const ok = await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: linkIn(latest, '/newsletter/confirm').searchParams.get('token') } });
    expect(ok.statusCode).toBe(200);
    await expect.poll(() => mailsTo('eve@example.test').length).toBe(3); // the welcome mail

    // Subscribed already: the box answers the same; the address gets a short note, not a new link.
    t.clock.advance(NEWSLETTER_REQUEST_MAIL_INTERVAL_MS);
    expect((await subscribe('eve@example.test')).json().message).toBe(CHECK_INBOX);
    const note = await smtp.waitForMail((m) => m.envelopeTo.includes('eve@example.test') && m.subject.startsWith('You are already subscribed'));
    expect(note.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect((await subscriber('eve@example.test')).status).toBe('subscribed');
  });

  it('lets an unsubscribed address subscribe again through a new confirmation', async () => {
    await subscribe('fay@example.test');
    const first = await smtp.waitForMail((m) => m.envelopeTo.includes('fay@example.test'));
    await t.app.inject({ method: 'POST', url: '/api/newsletter/unsubscribe', payload: { token: linkIn(first, '/newsletter/unsubscribe').searchParams.get('token') } });
    t.clock.advance(NEWSLETTER_REQUEST_MAIL_INTERVAL_MS);
    smtp.clear();
    await subscribe('fay@example.test');
    const second = await smtp.waitForMail((m) => m.envelopeTo.includes('fay@example.test'));
    expect((await subscriber('fay@example.test')).status).toBe('pending');
    await t.app.inject({ method: 'POST', url: '/api/newsletter/confirm', payload: { token: linkIn(second, '/newsletter/confirm').searchParams.get('token') } });
    expect(await subscriber('fay@example.test')).toMatchObject({ status: 'subscribed', unsubscribedAt: null });
  });

  it('drops a bot (honeypot) silently and refuses a malformed address', async () => {
    const res = await subscribe('bot@example.test', { honeypot: 'x' });
    expect(res.json()).toEqual({ success: true, message: CHECK_INBOX });
    expect(await subscriber('bot@example.test')).toBeUndefined();
    expect(smtp.messages).toHaveLength(0);
    const bad = await subscribe('not an address');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('body.email: Please enter a valid email address');
  });

  it('limits subscriptions per address with a clear message', async () => {
    t.clock.set(new Date('2026-12-10T10:00:00Z'));
    const ip = '203.0.113.77';
    for (let i = 0; i < 10; i++) expect((await subscribe(`many${i}@example.test`, { ip })).statusCode).toBe(200);
    const limited = await subscribe('one-more@example.test', { ip });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many submissions from your network/);
    expect(await subscriber('one-more@example.test')).toBeUndefined();
  });
});

describe('newsletter subscribers for staff', () => {
  it('lists subscribers with their status and exports them as CSV, formulas neutralised', async () => {
    await t.database.db.insert(newsletterSubscribers).values({ email: '=HYPERLINK("http://evil")@example.test', unsubscribeToken: 'tok-csv-1', status: 'subscribed', createdAt: t.clock.now() });
    const admin = await createUser(t, { role: 'admin' });
    const { cookie } = await signIn(t, admin, 'admin');
    const list = await t.app.inject({ method: 'GET', url: '/api/newsletter/subscribers?status=subscribed', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    const emails = list.json().subscribers.map((s: { email: string }) => s.email);
    expect(emails).toEqual(expect.arrayContaining(['Ada@Example.test', 'eve@example.test']));
    expect(list.json().subscribers.every((s: { status: string }) => s.status === 'subscribed')).toBe(true);

    const csv = await t.app.inject({ method: 'GET', url: '/api/newsletter/subscribers/export', headers: { cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('email,status,created_at,confirmed_at,unsubscribed_at');
    expect(lines).toContainEqual(expect.stringMatching(/^"Ada@Example\.test","subscribed","[^"]+","[^"]+",""$/));
    expect(lines).toContainEqual(expect.stringMatching(/^"bo@example\.test","unsubscribed",/));
    expect(lines).toContainEqual(expect.stringMatching(/^"'=HYPERLINK\(""http:\/\/evil""\)@example\.test","subscribed"/));
    const [row] = await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.unsubscribeToken, 'tok-csv-1'));
    expect(row.status).toBe('subscribed');
  });

  it('keeps visitors and clients away from the list and the export', async () => {
    const { cookie } = await signIn(t, await createUser(t, { role: 'client' }), 'client');
    for (const url of ['/api/newsletter/subscribers', '/api/newsletter/subscribers/export']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie, origin: ORIGIN } })).statusCode).toBe(403);
    }
  });
});
