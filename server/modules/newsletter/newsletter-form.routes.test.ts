import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { CROSS_SITE_REFUSED } from '../../plugins/access.ts';
import { formToken } from '../../../tests/helpers/forms.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';

// Decision 176: the footer's newsletter box without JavaScript posts a plain form to
// /newsletter/subscribe and gets a page back, with the JSON route's checks, limit and texts.
// (This process serves no web build, so the answer is the bare page with the same words; the
// browser test tests/e2e/site-no-js.spec.ts sees the site's page.)

const SITE = 'https://www.site.example';
// This app has no SMTP_URL, so the answer promises no confirmation mail (issue 21).
const CHECK_INBOX = 'Thank you. We cannot send the e-mail that confirms a subscription at the moment, so your subscription is not active yet. Please try again later.';
const BACK_LINK = /<a href="([^"]*)">Back to the page you were reading<\/a>/;

let t: TestApp;
let ipCounter = 1;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: SITE });
});
afterAll(async () => {
  await t.close();
});

function post(fields: Record<string, string> | string, headers: Record<string, string | undefined> = {}, ip = `198.51.100.${ipCounter++}`) {
  const payload = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
  const given = { 'content-type': 'application/x-www-form-urlencoded', origin: SITE, referer: `${SITE}/about`, ...headers };
  return t.app.inject({
    method: 'POST',
    url: '/newsletter/subscribe',
    headers: Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Record<string, string>,
    payload,
    remoteAddress: ip,
  });
}
const rows = (email: string) =>
  t.database.db.select().from(newsletterSubscribers).where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`);
const mailsTo = (email: string) =>
  t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, email), eq(mailOutbox.kind, 'newsletter-confirmation')));
const backLinkOf = (html: string) => BACK_LINK.exec(html)?.[1];

describe('the newsletter box posted without JavaScript', () => {
  it('subscribes a good address and answers a page saying to check the inbox, with a link back', async () => {
    const res = await post({ email: 'nojs.ada@example.test', homepageUrl: '' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain(`<p role="status">${CHECK_INBOX}</p>`);
    expect(backLinkOf(res.body)).toBe('/about');
    expect(await rows('nojs.ada@example.test')).toMatchObject([{ status: 'pending' }]);
    expect(await mailsTo('nojs.ada@example.test')).toHaveLength(1);
  });

  it('answers an address already on the list with the same page, so the box does not tell who subscribed', async () => {
    await t.database.db.insert(newsletterSubscribers).values({ email: 'nojs.known@example.test', status: 'subscribed', unsubscribeToken: 'tok-nojs-known', createdAt: t.clock.now() });
    const res = await post({ email: 'nojs.known@example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(CHECK_INBOX);
    expect(await rows('nojs.known@example.test')).toMatchObject([{ status: 'subscribed' }]);
  });

  it('refuses a malformed or missing address with 400 and the message, storing nothing', async () => {
    for (const [email, message] of [
      ['not an address', 'Please enter a valid email address'],
      ['x'.repeat(250) + '@example.test', 'Please enter a valid email address'],
      ['', 'Please enter your email address'],
    ]) {
      const res = await post({ email });
      expect(res.statusCode, email).toBe(400);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(`<p role="alert">${message}</p>`);
      expect(backLinkOf(res.body)).toBe('/about');
    }
    expect(await rows('not an address')).toEqual([]);
    const missing = await post('');
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Please enter your email address');
  });

  it('refuses a NUL character with a 400 page and stores nothing', async () => {
    const res = await post('email=nojs.nul%00@example.test');
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<p role="alert">Please enter a valid email address</p>');
    const honeypotNul = await post('email=nojs.nul2@example.test&homepageUrl=%00');
    expect(honeypotNul.statusCode).toBe(400);
    expect(honeypotNul.body).toContain('Text must not contain NUL characters');
    expect(await rows('nojs.nul2@example.test')).toEqual([]);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers).where(sql`${newsletterSubscribers.email} like 'nojs.nul%'`);
    expect(n).toBe(0);
  });

  it('drops a bot that filled the honeypot behind the same page', async () => {
    const res = await post({ email: 'nojs.bot@example.test', homepageUrl: 'http://spam.example' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(CHECK_INBOX);
    expect(await rows('nojs.bot@example.test')).toEqual([]);
  });

  it('refuses posts that do not come from our own pages with a 403 page, storing nothing', async () => {
    const cases: Record<string, string | undefined>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: 'http://www.site.example' }, // another scheme
      { origin: undefined, referer: 'https://evil.example/page' },
      { origin: undefined, referer: undefined },
      { origin: undefined, referer: 'not a url' },
    ];
    for (const [i, headers] of cases.entries()) {
      const res = await post({ email: `nojs.cross${i}@example.test` }, headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(CROSS_SITE_REFUSED);
      expect(await rows(`nojs.cross${i}@example.test`)).toEqual([]);
    }
    // A browser that sends no Origin but our page as Referer is let through.
    const res = await post({ email: 'nojs.referer@example.test' }, { origin: undefined, referer: `${SITE}/services` });
    expect(res.statusCode).toBe(200);
    expect(backLinkOf(res.body)).toBe('/services');
  });

  it('links back only to paths of this site, without their query', async () => {
    const back = async (fields: Record<string, string>, headers: Record<string, string | undefined> = {}) => backLinkOf((await post({ email: `nojs.back${ipCounter}@example.test`, ...fields }, headers)).body);
    expect(await back({ from: '/gallery' })).toBe('/gallery');
    expect(await back({}, { referer: `${SITE}/newsletter/confirm?token=secret-link-token` })).toBe('/newsletter/confirm');
    expect(await back({ from: '//evil.example/x' })).toBe('/about');
    expect(await back({ from: '/\\evil.example/x' })).toBe('/about');
    expect(await back({ from: 'https://evil.example/x' })).toBe('/about');
    expect(await back({ from: 'javascript:alert(1)' }, { referer: 'https://evil.example/x', origin: SITE })).toBe('/');
    expect(await back({}, { referer: `${SITE}/newsletter/subscribe` })).toBe('/');
    expect(await back({ from: '/"><script>alert(1)</script>' })).toBe('/%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
  });

  it('takes form posts only', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/newsletter/subscribe',
      headers: { 'content-type': 'application/json', origin: SITE },
      payload: { email: 'nojs.json@example.test' },
      remoteAddress: `198.51.100.${ipCounter++}`,
    });
    expect(res.statusCode).toBe(415);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(await rows('nojs.json@example.test')).toEqual([]);
  });
});

describe('the limits of the form post', () => {
  it('lets exactly ten posts of one network through an hour, even all at once, sharing the counter with the JSON route', async () => {
    t.clock.set(new Date('2026-12-11T10:00:00Z'));
    const ip = '203.0.113.90';
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => post({ email: `nojs.many${i}@example.test` }, {}, ip)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(4).fill(429)]);
    for (const limited of answers.filter((r) => r.statusCode === 429)) {
      expect(limited.body).toMatch(/<p role="alert">Too many submissions from your network\. Please try again in \d+ minutes, or write to us by e-mail\.<\/p>/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(newsletterSubscribers).where(sql`${newsletterSubscribers.email} like 'nojs.many%'`);
    expect(n).toBe(10);
    // The JSON route of the box counts in the same counter: the network has no second allowance.
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/newsletter/subscribe',
      payload: { email: 'nojs.json-after@example.test', formToken: await formToken(t, 'newsletter'), homepageUrl: '' },
      remoteAddress: ip,
    });
    expect(json.statusCode).toBe(429);
  });

  it('stores one row and mails one link when the same address is posted many times at once', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post({ email: i % 2 ? 'Nojs.Same@example.test' : 'nojs.same@example.test' })));
    expect(answers.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(await rows('nojs.same@example.test')).toHaveLength(1);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(sql`lower(${mailOutbox.to}) = 'nojs.same@example.test'`, eq(mailOutbox.kind, 'newsletter-confirmation')));
    expect(mails).toHaveLength(1);
  });
});
