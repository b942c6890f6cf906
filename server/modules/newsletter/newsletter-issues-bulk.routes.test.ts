import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { newsletterIssues, newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { retryPendingMail } from '../../mail/mailer.ts';
import type { TestSmtpServer } from '../../../tests/helpers/smtp-server.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { NEWSLETTER_SEND_BATCH } from './newsletter-issues.service.ts';
import { appWithSmtp } from '../../../tests/helpers/actors.ts';

// A list longer than two batches: three keyset pages, three multi-row INSERTs in one transaction.
const SUBSCRIBERS = 2 * NEWSLETTER_SEND_BATCH + 1;

let smtp: TestSmtpServer;
let t: TestApp;
let headers: { cookie: string; origin: string };

beforeAll(async () => {
  ({ t, smtp } = await appWithSmtp());
  const admin = await createUser(t, { role: 'admin' });
  headers = { cookie: (await signIn(t, admin, 'admin')).cookie, origin: 'http://localhost:3000' };
  await t.database.db.insert(newsletterSubscribers).values(
    Array.from({ length: SUBSCRIBERS }, (_, i) => ({
      // Ids in the order of the addresses, so the last address is in the last batch.
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      email: `reader-${String(i).padStart(4, '0')}@example.test`,
      status: 'subscribed' as const,
      unsubscribeToken: `unsub-${i}-${randomUUID()}`,
      createdAt: t.clock.now(),
      confirmedAt: t.clock.now(),
    })),
  );
});
afterAll(() => t?.close());

const send = (subject: string, idempotencyKey: string) =>
  t.app.inject({ method: 'POST', url: '/api/newsletter/issues', headers, payload: { subject, body: 'News from the yard.', idempotencyKey } });
const mailsWithStatus = async (subject: string, status?: 'pending' | 'sent') =>
  (await t.database.db.select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.subject, subject), status ? eq(mailOutbox.status, status) : undefined)))[0].n;

// A thousand mails through the fake SMTP server: on a loaded machine this takes longer than the usual 30 s.
describe('a newsletter to a list longer than one batch', { timeout: 90_000 }, () => {
  it('records nothing when the last insert statement fails, then mails every subscriber exactly once with their own link', async () => {
    const last = `reader-${String(SUBSCRIBERS - 1).padStart(4, '0')}@example.test`;
    await t.database.db.execute(
      sql.raw(`
      CREATE FUNCTION test_refuse_last() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW."to" = '${last}' THEN RAISE EXCEPTION 'disk full (test)'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_refuse_last BEFORE INSERT ON mail_outbox FOR EACH ROW EXECUTE FUNCTION test_refuse_last();
    `),
    );
    const key = randomUUID();
    const failed = await send('Big list', key);
    expect(failed.statusCode).toBe(500);
    // The first two statements' 1,000 mails went with the rollback of the third.
    expect(await mailsWithStatus('Big list')).toBe(0);
    expect((await t.database.db.select({ n: count() }).from(newsletterIssues))[0].n).toBe(0);
    await t.database.db.execute(sql.raw('DROP TRIGGER test_refuse_last ON mail_outbox; DROP FUNCTION test_refuse_last();'));

    const ok = await send('Big list', key);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().issue.recipientCount).toBe(SUBSCRIBERS);
    await expect.poll(() => mailsWithStatus('Big list', 'sent'), { timeout: 60_000, interval: 200 }).toBe(SUBSCRIBERS);
    // Nothing is left for the retries to send again, even long after.
    t.clock.advance(60 * 60_000);
    expect(await retryPendingMail(t.app)).toBe(0);

    const received = smtp.messages.filter((m) => m.subject === 'Big list');
    expect(received).toHaveLength(SUBSCRIBERS);
    const tokens = new Map(
      (await t.database.db.select({ email: newsletterSubscribers.email, token: newsletterSubscribers.unsubscribeToken }).from(newsletterSubscribers)).map((r) => [
        r.email,
        r.token,
      ]),
    );
    const addresses = new Set<string>();
    for (const mail of received) {
      const [to] = mail.envelopeTo;
      addresses.add(to);
      expect(mail.headers['list-unsubscribe']).toBe(`<http://localhost:3000/api/newsletter/unsubscribe?token=${encodeURIComponent(tokens.get(to)!)}>`);
    }
    expect(addresses.size).toBe(SUBSCRIBERS);
  });
});
