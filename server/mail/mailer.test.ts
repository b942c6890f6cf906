import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../db/schema/mail.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../tests/helpers/smtp-server.ts';
import { renderMail } from './layout.ts';
import { MAIL_MAX_ATTEMPTS, MAIL_RETRY_BASE_MS, deliverQueuedMail, queueMail, retryPendingMail, sendMail, startMailRetries } from './mailer.ts';

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Website <no-reply@example.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});
afterEach(() => smtp.clear());

const outboxRow = async (id: string) => (await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0];

describe('mail module', () => {
  it('delivers over SMTP with text, html and extra headers, and records the mail as sent', async () => {
    const { id, delivered } = await sendMail(t.app, {
      to: 'ada@example.test',
      subject: 'Hello there',
      text: 'Plain words',
      html: '<p>Plain words</p>',
      kind: 'test',
      headers: { 'List-Unsubscribe': '<https://example.test/u?token=abc>' },
      replyTo: 'staff@example.test',
    });
    expect(delivered).toBe(true);
    const mail = await smtp.waitForMail((m) => m.subject === 'Hello there');
    expect(mail.envelopeTo).toEqual(['ada@example.test']);
    expect(mail.from).toContain('no-reply@example.test');
    expect(mail.text).toContain('Plain words');
    expect(mail.html).toContain('<p>Plain words</p>');
    expect(mail.headers['list-unsubscribe']).toBe('<https://example.test/u?token=abc>');
    expect(mail.headers['reply-to']).toContain('staff@example.test');
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
  });

  it('keeps a mail the SMTP server refused as pending and sends it on the retry after the backoff', async () => {
    smtp.failNext(1);
    const { id, delivered } = await sendMail(t.app, { to: 'bo@example.test', subject: 'Retry me', text: 'x', kind: 'test', headers: { 'X-Test': 'kept' } });
    expect(delivered).toBe(false);
    expect(await outboxRow(id)).toMatchObject({ status: 'pending', attempts: 1 });
    expect((await outboxRow(id)).lastError).toMatch(/Try again later/);

    // Not due yet: nothing is sent before the backoff has passed.
    t.clock.advance(MAIL_RETRY_BASE_MS - 1000);
    expect(await retryPendingMail(t.app)).toBe(0);
    t.clock.advance(1000);
    expect(await retryPendingMail(t.app)).toBe(1);
    const mail = await smtp.waitForMail((m) => m.subject === 'Retry me');
    expect(mail.headers['x-test']).toBe('kept');
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2 });
    // Sent once only, however often the retry runs.
    t.clock.advance(60 * 60_000);
    expect(await retryPendingMail(t.app)).toBe(0);
    expect(smtp.messages.filter((m) => m.subject === 'Retry me')).toHaveLength(1);
  });

  it('gives up after the last attempt and marks the mail failed', async () => {
    smtp.failNext(MAIL_MAX_ATTEMPTS);
    const { id } = await sendMail(t.app, { to: 'cy@example.test', subject: 'Never arrives', text: 'x', kind: 'test' });
    for (let i = 1; i < MAIL_MAX_ATTEMPTS; i++) {
      t.clock.advance(MAIL_RETRY_BASE_MS * 2 ** i);
      await retryPendingMail(t.app);
    }
    expect(await outboxRow(id)).toMatchObject({ status: 'failed', attempts: MAIL_MAX_ATTEMPTS, nextAttemptAt: null });
    t.clock.advance(24 * 60 * 60_000);
    expect(await retryPendingMail(t.app)).toBe(0);
    expect(smtp.messages.filter((m) => m.subject === 'Never arrives')).toHaveLength(0);
    smtp.failNext(0);
  });

  it('sends nothing for a mail queued in a transaction that rolled back', async () => {
    const ids: string[] = [];
    await expect(
      t.database.db.transaction(async (tx) => {
        ids.push(await queueMail(tx, t.app, { to: 'dd@example.test', subject: 'Rolled back', text: 'x', kind: 'test' }));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await deliverQueuedMail(t.app, ids);
    expect(await outboxRow(ids[0])).toBeUndefined();
    expect(smtp.messages).toHaveLength(0);
  });

  it('retries, from the periodic scheduler, a mail whose first delivery never finished', async () => {
    // A process that died between queueing and sending leaves a pending mail behind its lease.
    const id = await queueMail(t.database.db, t.app, { to: 'ee@example.test', subject: 'Orphaned', text: 'x', kind: 'test' });
    t.clock.advance(10 * 60_000);
    const stop = startMailRetries(t.app, 20);
    try {
      await smtp.waitForMail((m) => m.subject === 'Orphaned', 5000);
      // The row is marked sent right after the SMTP server said yes.
      await expect.poll(async () => (await outboxRow(id)).status).toBe('sent');
    } finally {
      stop();
    }
  });
});

describe('mail without SMTP', () => {
  it('stores the mail in the outbox with status stored and sends nothing', async () => {
    const local = await createTestApp();
    try {
      const { id, delivered } = await sendMail(local.app, { to: 'ff@example.test', subject: 'Local only', text: 'x', kind: 'test' });
      expect(delivered).toBe(false);
      const [row] = await local.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      expect(row).toMatchObject({ status: 'stored', subject: 'Local only' });
      expect(await retryPendingMail(local.app)).toBe(0);
    } finally {
      await local.close();
    }
  });
});

describe('mail layout', () => {
  it('escapes what visitors typed in the HTML part and keeps it readable in the text part', () => {
    const mail = renderMail({
      subject: 'New message from <b>Eve</b>\r\nBcc: victim@example.test',
      greeting: 'Hello <script>alert(1)</script>,',
      paragraphs: ['Line one\nline two & "quotes"'],
      fields: [['Company', '<img src=x onerror=alert(1)>']],
      action: { label: 'Open', url: 'https://example.test/a?b=1&c=2' },
      footerLinks: [{ label: 'Unsubscribe', url: 'https://example.test/u' }],
    });
    expect(mail.subject).toBe('New message from <b>Eve</b> Bcc: victim@example.test');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img src=x');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Line one<br>line two &amp; &quot;quotes&quot;');
    expect(mail.html).toContain('href="https://example.test/a?b=1&amp;c=2"');
    expect(mail.text).toContain('Company: <img src=x onerror=alert(1)>');
    expect(mail.text).toContain('https://example.test/a?b=1&c=2');
    expect(mail.text).toContain('Unsubscribe: https://example.test/u');
  });

  it('refuses links that are not http(s)', () => {
    expect(() => renderMail({ subject: 's', paragraphs: [], action: { label: 'x', url: 'javascript:alert(1)' } })).toThrow();
  });
});
