import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { createDatabase } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { createTestApp, type TestApp } from '../../tests/helpers/test-app.ts';
import { startSmtpServer, type TestSmtpServer } from '../../tests/helpers/smtp-server.ts';
import { renderMail } from './layout.ts';
import {
  MAIL_DELIVERY_LEASE_MS,
  MAIL_INSERT_BATCH,
  MAIL_LEASE_MARGIN_MS,
  MAIL_MAX_ATTEMPTS,
  MAIL_POOL_CONNECTIONS,
  MAIL_RETRY_BASE_MS,
  MAIL_RETRY_BATCH,
  deliverQueuedMail,
  queueMail,
  queueMails,
  retryPendingMail,
  sendMail,
  startMailRetries,
  type MailInput,
} from './mailer.ts';
import { appWithSmtp } from '../../tests/helpers/actors.ts';

let smtp: TestSmtpServer;
let t: TestApp;
beforeAll(async () => ({ t, smtp } = await appWithSmtp({ MAIL_FROM: 'Website <no-reply@example.test>' })));
afterAll(() => t?.close());
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
      await stop();
    }
  });
});

const many = (prefix: string, n: number): MailInput[] =>
  Array.from({ length: n }, (_, i) => ({ to: `${prefix}-${i}@example.test`, subject: `${prefix} ${i}`, text: `Mail ${i}`, html: `<p>Mail ${i}</p>`, kind: 'bulk-test' }));
/** How many mails each address of a bulk test received. */
const receivedPerAddress = (prefix: string) => {
  const counts = new Map<string, number>();
  for (const m of smtp.messages) for (const to of m.envelopeTo) if (to.startsWith(`${prefix}-`)) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
};

describe('bulk mail', () => {
  it('queues many mails with multi-row inserts exactly as queueMail does, and none when the transaction rolls back', async () => {
    const n = 2 * MAIL_INSERT_BATCH + 1;
    const mails = many('bulk', n);
    mails[7] = { ...mails[7], headers: { 'List-Unsubscribe': '<https://example.test/u?token=7>' }, replyTo: 'staff@example.test' };
    const ids = await t.database.db.transaction((tx) => queueMails(tx, t.app, mails));
    expect(ids).toHaveLength(n);
    const rows = await t.database.db.select().from(mailOutbox).where(like(mailOutbox.to, 'bulk-%'));
    expect(rows).toHaveLength(n);
    const byId = new Map(rows.map((r) => [r.id, r]));
    // The ids come back in the order of the mails.
    ids.forEach((id, i) => expect(byId.get(id)?.to).toBe(`bulk-${i}@example.test`));
    const leaseEnd = new Date(t.clock.now().getTime() + MAIL_DELIVERY_LEASE_MS);
    for (const row of rows) expect(row).toMatchObject({ status: 'pending', attempts: 0, nextAttemptAt: leaseEnd, createdAt: t.clock.now(), kind: 'bulk-test' });
    expect(byId.get(ids[7])).toMatchObject({ headers: { 'List-Unsubscribe': '<https://example.test/u?token=7>' }, replyTo: 'staff@example.test', html: '<p>Mail 7</p>' });
    // Queued, not sent: within their lease the retries leave them alone.
    expect(await retryPendingMail(t.app)).toBe(0);
    expect(smtp.messages).toHaveLength(0);

    await expect(
      t.database.db.transaction(async (tx) => {
        await queueMails(tx, t.app, many('undone', MAIL_INSERT_BATCH + 10));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await t.database.db.select({ n: count() }).from(mailOutbox).where(like(mailOutbox.to, 'undone-%')))[0].n).toBe(0);
    await t.database.db.delete(mailOutbox).where(like(mailOutbox.to, 'bulk-%'));
  });

  it('delivers queued mails over a few pooled connections and closes them when the app closes', async () => {
    const sink = await startSmtpServer();
    const own = await createTestApp({ SMTP_URL: sink.url });
    let closed = false;
    try {
      const ids = await queueMails(own.database.db, own.app, many('pooled', 60));
      expect(await deliverQueuedMail(own.app, ids)).toEqual({ delivered: 60, left: 0 });
      expect(new Set(sink.messages.flatMap((m) => m.envelopeTo)).size).toBe(60);
      // Not one connection per mail: the pool's few, kept open for the next deliveries.
      expect(sink.connectionsOpened()).toBeLessThanOrEqual(MAIL_POOL_CONNECTIONS);
      expect(sink.openConnections()).toBeGreaterThan(0);
      await own.close();
      closed = true;
      await expect.poll(() => sink.openConnections()).toBe(0);
    } finally {
      if (!closed) await own.close();
      await sink.close();
    }
  });

  it('leaves a mail whose first delivery would start too late in its lease to the retries, which send it once', async () => {
    const [id] = await queueMails(t.database.db, t.app, many('late', 1));
    t.clock.advance(MAIL_DELIVERY_LEASE_MS - MAIL_LEASE_MARGIN_MS);
    expect(await deliverQueuedMail(t.app, [id])).toEqual({ delivered: 0, left: 1 });
    expect(smtp.messages).toHaveLength(0);
    t.clock.advance(MAIL_LEASE_MARGIN_MS);
    expect(await retryPendingMail(t.app)).toBe(1);
    // The original delivery coming back late sends nothing more: the mail is no longer its to send.
    expect(await deliverQueuedMail(t.app, [id])).toEqual({ delivered: 0, left: 0 });
    expect(receivedPerAddress('late')).toEqual(new Map([['late-0@example.test', 1]]));
  });

  it('drains a backlog of several batches in one retry round', async () => {
    const n = 3 * MAIL_RETRY_BATCH + 20;
    await queueMails(t.database.db, t.app, many('backlog', n));
    t.clock.advance(MAIL_DELIVERY_LEASE_MS);
    expect(await retryPendingMail(t.app)).toBe(n);
    const counts = receivedPerAddress('backlog');
    expect(counts.size).toBe(n);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('stops a retry round under way after the mails being sent when the job stops; the rest go out later, once each', async () => {
    const n = 3 * MAIL_RETRY_BATCH;
    await queueMails(t.database.db, t.app, many('stopping', n));
    t.clock.advance(MAIL_DELIVERY_LEASE_MS);
    const stop = startMailRetries(t.app, 10);
    await smtp.waitForMail((m) => m.envelopeTo.some((to) => to.startsWith('stopping-')), 5000);
    await stop();
    const sentRows = async () =>
      (await t.database.db.select({ n: count() }).from(mailOutbox).where(and(like(mailOutbox.to, 'stopping-%'), eq(mailOutbox.status, 'sent'))))[0].n;
    // Nothing in flight once stop() settles: every mail that arrived is recorded as sent.
    const first = await sentRows();
    expect(first).toBe(receivedPerAddress('stopping').size);
    expect(first).toBeLessThan(n);
    // Mails claimed but not sent wait for their lease; then the retries send every one left.
    t.clock.advance(MAIL_DELIVERY_LEASE_MS);
    expect(await retryPendingMail(t.app)).toBe(n - first);
    expect(await sentRows()).toBe(n);
    const counts = receivedPerAddress('stopping');
    expect(counts.size).toBe(n);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('delivers each due mail exactly once when two processes run their retry rounds at the same time', async () => {
    // A second process: its own connection pool to the same database and its own SMTP transport.
    const database = createDatabase(t.databaseUrl, { max: 4 });
    const second = await buildApp({ config: { ...t.config }, database, logger: false, clock: t.clock });
    await second.ready();
    try {
      const n = 4 * MAIL_RETRY_BATCH + 30;
      const ids = await queueMails(t.database.db, t.app, many('race', n));
      t.clock.advance(MAIL_DELIVERY_LEASE_MS);
      const [a, b] = await Promise.all([retryPendingMail(t.app), retryPendingMail(second)]);
      expect(a + b).toBe(n);
      const counts = receivedPerAddress('race');
      expect(counts.size).toBe(n);
      expect([...counts.values()].every((c) => c === 1)).toBe(true);
      const rows = await t.database.db.select().from(mailOutbox).where(like(mailOutbox.to, 'race-%'));
      expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
      // Later rounds find nothing left to send.
      t.clock.advance(60 * 60_000);
      expect(await Promise.all([retryPendingMail(t.app), retryPendingMail(second)])).toEqual([0, 0]);
      expect(receivedPerAddress('race').size).toBe(n);
      expect(smtp.messages.filter((m) => m.envelopeTo.some((to) => to.startsWith('race-')))).toHaveLength(n);
    } finally {
      await second.close();
      await database.close();
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
      const ids = await queueMails(local.database.db, local.app, [{ to: 'gg@example.test', subject: 'Bulk local', text: 'x', kind: 'test' }]);
      const [bulk] = await local.database.db.select().from(mailOutbox).where(eq(mailOutbox.id, ids[0]));
      expect(bulk).toMatchObject({ status: 'stored', nextAttemptAt: null });
      expect(await deliverQueuedMail(local.app, ids)).toEqual({ delivered: 0, left: 0 });
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
