import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { company } from '../../../common/content/company.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { newsletterIssues, newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { retryPendingMail } from '../../mail/mailer.ts';
import type { ReceivedMail, TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';

// Same-origin requests come from the public address (the CSRF check compares with PUBLIC_URL).
const PUBLIC_URL = 'https://www.site.example';
const ORIGIN = PUBLIC_URL;

let smtp: TestSmtpServer;
let t: TestApp;
let admin: { id: string; name: string; email: string };
let headers: { cookie: string; origin: string };

beforeAll(async () => {
  ({ t, smtp } = await appWithSmtp({ PUBLIC_URL }));
  admin = await createUser(t, { role: 'admin', name: 'Ngozi Okafor' });
  headers = { cookie: (await signIn(t, admin, 'admin')).cookie, origin: ORIGIN };
});
afterAll(() => t?.close());
beforeEach(() => smtp.clear());

let tokenCounter = 0;
/** Puts an address on the list directly, in the given state, dated by the app's clock. */
async function addSubscriber(email: string, status: 'pending' | 'subscribed' | 'unsubscribed', id?: string) {
  const [row] = await t.database.db
    .insert(newsletterSubscribers)
    .values({
      ...(id ? { id } : {}),
      email,
      status,
      unsubscribeToken: `unsub-${++tokenCounter}-${randomUUID()}`,
      createdAt: t.clock.now(),
      confirmedAt: status === 'pending' ? null : t.clock.now(),
      unsubscribedAt: status === 'unsubscribed' ? t.clock.now() : null,
    })
    .returning();
  return row;
}
const subscriberRow = async (email: string) => (await t.database.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email)))[0];

const send = (payload: object, h: Record<string, string> = headers) => t.app.inject({ method: 'POST', url: '/api/newsletter/issues', headers: h, payload });
const sendTest = (payload: object, h: Record<string, string> = headers) => t.app.inject({ method: 'POST', url: '/api/newsletter/issues/test', headers: h, payload });
const issue = (subject: string, body = 'Hello from the yard.', idempotencyKey: string = randomUUID()) => ({ subject, body, idempotencyKey });

const issueCount = async () => (await t.database.db.select({ n: count() }).from(newsletterIssues))[0].n;
const issueMailCount = async () => (await t.database.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.kind, 'newsletter-issue')))[0].n;
const sentTo = (m: ReceivedMail, email: string) => m.envelopeTo.some((to) => to.toLowerCase() === email.toLowerCase());
/** The plain part as typed: SMTP carries line ends as CRLF. */
const plain = (m: ReceivedMail) => m.text.replace(/\r\n/g, '\n');
const withSubject = (subject: string) => smtp.messages.filter((m) => m.subject === subject);

describe('who may write and send newsletters', () => {
  it('refuses anonymous callers (401) and clients (403) on every issue route', async () => {
    const client = await createUser(t, { role: 'client' });
    const clientHeaders = { cookie: (await signIn(t, client, 'client')).cookie, origin: ORIGIN };
    const calls = [
      { method: 'GET' as const, url: '/api/newsletter/issues' },
      { method: 'POST' as const, url: '/api/newsletter/issues/test', payload: { subject: 'Hi', body: 'Hello' } },
      { method: 'POST' as const, url: '/api/newsletter/issues', payload: issue('Hi') },
    ];
    for (const call of calls) {
      expect((await t.app.inject({ ...call, headers: { origin: ORIGIN } })).statusCode).toBe(401);
      const asClient = await t.app.inject({ ...call, headers: clientHeaders });
      expect(asClient.statusCode).toBe(403);
      expect(asClient.json()).toMatchObject({ success: false, code: 'FORBIDDEN' });
    }
    expect(await issueCount()).toBe(0);
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('writing a newsletter', () => {
  it('names what is wrong with the subject and the body', async () => {
    const cases: [object, string][] = [
      [{ subject: '   ', body: 'Hello' }, 'body.subject: Please enter a subject'],
      [{ subject: 's'.repeat(151), body: 'Hello' }, 'body.subject: The subject is too long (at most 150 characters)'],
      [{ subject: 'Hi', body: '\n\n  ' }, 'body.body: Please write the newsletter'],
      [{ subject: 'Hi', body: 'b'.repeat(20_001) }, 'body.body: The newsletter is too long (at most 20,000 characters)'],
      [{ subject: 'Hi', body: 'nul \u0000 here' }, 'body.body: Text must not contain NUL characters'],
    ];
    for (const [payload, message] of cases) {
      for (const res of [await sendTest(payload), await send({ ...payload, idempotencyKey: randomUUID() })]) {
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED', message });
      }
    }
    const noKey = await send({ subject: 'Hi', body: 'Hello' });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().message).toMatch(/^body\.idempotencyKey: /);
    expect(await issueCount()).toBe(0);
    expect(smtp.messages).toHaveLength(0);
  });

  it('mails a test only to the signed-in staff member, at the limits of 150 and 20,000 characters, and records nothing', async () => {
    await addSubscriber('reader-test@example.test', 'subscribed');
    const subject = 'S'.repeat(150);
    const res = await sendTest({ subject, body: `${'b'.repeat(9_999)}\n\n${'c'.repeat(9_999)}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: `A test was sent to ${admin.email}.`, mail: 'sent' });
    const mail = await smtp.waitForMail();
    expect(mail.envelopeTo).toEqual([admin.email]);
    expect(mail.subject).toBe(`[Test] ${subject}`);
    expect(mail.text).toContain('This is a test sent only to you.');
    // Not a subscriber's copy: no unsubscribe headers that would point at nobody.
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
    expect(smtp.messages).toHaveLength(1);
    expect(await issueCount()).toBe(0);
    expect(await issueMailCount()).toBe(0);
    await t.database.db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, 'reader-test@example.test'));
  });

  it('refuses to send when nobody has confirmed, and records nothing', async () => {
    await addSubscriber('waiting@example.test', 'pending');
    const res = await send(issue('Nobody yet'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, code: 'BAD_REQUEST', message: 'There are no confirmed subscribers to send to yet.' });
    expect(await issueCount()).toBe(0);
    expect(await issueMailCount()).toBe(0);
  });
});

describe('sending a newsletter', () => {
  it('mails every confirmed subscriber (never pending or unsubscribed ones), each with their own one-click unsubscribe link', async () => {
    const confirmed = ['ada@example.test', 'bayo@example.test', 'chioma@example.test'];
    for (const email of confirmed) await addSubscriber(email, 'subscribed');
    await addSubscriber('gone@example.test', 'unsubscribed');

    const res = await send(issue('Harbour works: March update', 'The new jetty is finished.\n\nNext: the crane pad.'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'The newsletter is on its way to 3 subscribers.',
      issue: { subject: 'Harbour works: March update', recipientCount: 3, sentBy: { _id: admin.id, name: 'Ngozi Okafor' }, sentAt: t.clock.now().toISOString() },
    });

    await expect.poll(() => withSubject('Harbour works: March update').length).toBe(3);
    const mails = withSubject('Harbour works: March update');
    expect(mails.flatMap((m) => m.envelopeTo).sort()).toEqual(confirmed);
    for (const email of confirmed) {
      const mail = mails.find((m) => sentTo(m, email))!;
      const { unsubscribeToken } = await subscriberRow(email);
      const token = encodeURIComponent(unsubscribeToken);
      expect(mail.headers['list-unsubscribe']).toBe(`<https://www.site.example/api/newsletter/unsubscribe?token=${token}>`);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const page = `https://www.site.example/newsletter/unsubscribe?token=${token}`;
      expect(mail.text).toContain(page);
      expect(mail.html).toContain(`href="${page}"`);
      // The company's identity closes every issue, in both parts.
      for (const part of [mail.text, mail.html]) {
        expect(part).toContain(company.address);
        expect(part).toContain(company.phone);
      }
      expect(mail.text).toContain(company.name);
      expect(plain(mail)).toContain('The new jetty is finished.\n\nNext: the crane pad.');
    }
    expect(await issueMailCount()).toBe(3);

    // What Bayo's mail program does with the header: a one-click form post. Only Bayo leaves the list.
    const bayo = mails.find((m) => sentTo(m, 'bayo@example.test'))!;
    const oneClick = new URL(bayo.headers['list-unsubscribe'].slice(1, -1));
    const out = await t.app.inject({
      method: 'POST',
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(out.statusCode).toBe(200);
    expect((await subscriberRow('bayo@example.test')).status).toBe('unsubscribed');
    expect((await subscriberRow('ada@example.test')).status).toBe('subscribed');
    expect((await subscriberRow('chioma@example.test')).status).toBe('subscribed');
    expect((await subscriberRow('waiting@example.test')).status).toBe('pending');

    // The next issue goes to the two who stayed.
    smtp.clear();
    const next = await send(issue('April update'));
    expect(next.json().issue.recipientCount).toBe(2);
    await expect.poll(() => withSubject('April update').length).toBe(2);
    expect(withSubject('April update').flatMap((m) => m.envelopeTo).sort()).toEqual(['ada@example.test', 'chioma@example.test']);
  });

  it('shows what staff typed as text: the HTML part escapes it, blank lines make paragraphs', async () => {
    const body = '<script>alert("x")</script> & <b>bold</b>\n\nSecond paragraph,\nsecond line.\n\n\n\nThird.';
    const res = await send(issue('Tags <i>stay</i> text & "quotes"', body));
    expect(res.statusCode).toBe(201);
    const mail = await smtp.waitForMail((m) => sentTo(m, 'ada@example.test'));
    expect(mail.subject).toBe('Tags <i>stay</i> text & "quotes"');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>bold</b>');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;</p>');
    expect(mail.html).toContain('>Second paragraph,<br>second line.</p>');
    expect(mail.html).toContain('>Third.</p>');
    expect(mail.html).toContain('<title>Tags &lt;i&gt;stay&lt;/i&gt; text &amp; &quot;quotes&quot;</title>');
    expect(plain(mail)).toContain('<script>alert("x")</script> & <b>bold</b>\n\nSecond paragraph,\nsecond line.\n\nThird.\n');
  });

  it('sends an issue once per key: a double click (two requests at once) and a later retry send nothing more', async () => {
    smtp.clear();
    const before = await issueMailCount();
    const payload = issue('Double click', 'Only once, please.');
    const [a, b] = await Promise.all([send(payload), send(payload)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json()).toEqual({ success: false, code: 'CONFLICT', message: 'This newsletter has already been sent.' });
    const retry = await send(payload);
    expect(retry.statusCode).toBe(409);

    expect((await t.database.db.select().from(newsletterIssues).where(eq(newsletterIssues.subject, 'Double click'))).length).toBe(1);
    expect((await issueMailCount()) - before).toBe(2);
    await expect.poll(() => withSubject('Double click').length).toBe(2);
    // Both deliveries recorded (the server keeps a mail before its answer reaches us), then give a
    // wrongly queued third mail the chance to arrive before counting.
    await expect
      .poll(async () => (await t.database.db.select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.subject, 'Double click'), eq(mailOutbox.status, 'sent'))))[0].n)
      .toBe(2);
    t.clock.advance(60 * 60_000);
    await retryPendingMail(t.app);
    expect(withSubject('Double click')).toHaveLength(2);
  });

  it('queues all mails of an issue or none: a failure half-way records neither the issue nor any mail', async () => {
    // A real database failure on the last subscriber's mail (ids sort it last), after the others were queued.
    await addSubscriber('boom@example.test', 'subscribed', 'ffffffff-ffff-4fff-8fff-ffffffffffff');
    await t.database.db.execute(sql.raw(`
      CREATE FUNCTION test_refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.kind = 'newsletter-issue' AND NEW."to" = 'boom@example.test' THEN RAISE EXCEPTION 'disk full (test)'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_refuse_boom BEFORE INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION test_refuse_boom();
    `));
    smtp.clear();
    const issuesBefore = await issueCount();
    const mailsBefore = await issueMailCount();
    const payload = issue('Half way', 'This must not reach anyone.');
    const failed = await send(payload);
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ success: false, code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' });
    expect(await issueCount()).toBe(issuesBefore);
    expect(await issueMailCount()).toBe(mailsBefore);
    t.clock.advance(60 * 60_000);
    await retryPendingMail(t.app);
    expect(smtp.messages).toHaveLength(0);

    // Once the fault is gone, the same key sends it (the failed attempt left nothing behind).
    await t.database.db.execute(sql.raw('DROP TRIGGER test_refuse_boom ON mail_outbox; DROP FUNCTION test_refuse_boom();'));
    const ok = await send(payload);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().issue.recipientCount).toBe(3);
    await expect.poll(() => withSubject('Half way').length).toBe(3);
  });

  it('leaves a mail the SMTP server refuses to the outbox, which retries it', async () => {
    smtp.clear();
    smtp.failNext(1);
    const res = await send(issue('Retry me'));
    expect(res.json().issue.recipientCount).toBe(3);
    await expect.poll(() => withSubject('Retry me').length).toBe(2);
    await expect
      .poll(async () => (await t.database.db.select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.subject, 'Retry me'), eq(mailOutbox.status, 'pending'))))[0].n)
      .toBe(1);
    t.clock.advance(60_000);
    expect(await retryPendingMail(t.app)).toBe(1);
    expect(withSubject('Retry me').flatMap((m) => m.envelopeTo).sort()).toEqual(['ada@example.test', 'boom@example.test', 'chioma@example.test']);
  });
});

describe('the list of sent newsletters', () => {
  it('lists issues newest first with sender and recipients, 50 per page, and counts the confirmed subscribers', async () => {
    const existing = await issueCount();
    const start = t.clock.now().getTime();
    await t.database.db.insert(newsletterIssues).values(
      Array.from({ length: 51 }, (_, i) => ({
        subject: `Archive ${i + 1}`,
        body: 'Old news.',
        sentById: admin.id,
        sentByName: admin.name,
        sentAt: new Date(start + (i + 1) * 60_000),
        recipientCount: i,
        idempotencyKey: randomUUID(),
      })),
    );
    const first = await t.app.inject({ method: 'GET', url: '/api/newsletter/issues', headers });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ success: true, total: existing + 51, page: 1, pageSize: 50, confirmedSubscribers: 3 });
    expect(body.issues).toHaveLength(50);
    expect(body.issues[0]).toEqual({
      _id: expect.any(String),
      subject: 'Archive 51',
      sentAt: new Date(start + 51 * 60_000).toISOString(),
      sentBy: { _id: admin.id, name: 'Ngozi Okafor' },
      recipientCount: 50,
    });
    expect(body.issues[1].subject).toBe('Archive 50');
    expect(body.issues[0]).not.toHaveProperty('body');

    const second = (await t.app.inject({ method: 'GET', url: '/api/newsletter/issues?page=2', headers })).json();
    expect(second.issues).toHaveLength(existing + 1);
    expect(second.issues[0].subject).toBe('Archive 1');
    expect(second.issues.map((i: { subject: string }) => i.subject)).toContain('Harbour works: March update');
  });
});
