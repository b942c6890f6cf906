// Newsletter figures for npm run bench: queueing an issue for 5,000 confirmed subscribers (the
// request, whose one transaction inserts every mail), the time until all of them reached a local SMTP
// sink, and how fast the outbox's retry job drains a backlog of 5,000 due mails (decision 076).
// The product server of bench/run.ts has no SMTP_URL, so this builds the same application in this
// process, with SMTP pointed at the sink, on the bench's database (BENCH_DATABASE_URL). Run alone
// (starts its own embedded PostgreSQL in a temporary folder) with:
//   node --import tsx bench/newsletter.ts
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, count, eq, like } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createDatabase } from '../server/db/client.ts';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { runMigrations } from '../server/db/migrate.ts';
import { mailOutbox } from '../server/db/schema/mail.ts';
import { newsletterSubscribers } from '../server/db/schema/newsletter.ts';
import { users } from '../server/db/schema/users.ts';
import { MAIL_DELIVERY_LEASE_MS, queueMails, retryPendingMail } from '../server/mail/mailer.ts';
import { createSession } from '../server/modules/auth/sessions.service.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import type { BenchRow } from './run.ts';

const SUBSCRIBERS = Number(process.env.BENCH_NEWSLETTER_SUBSCRIBERS ?? 5_000);
const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** An SMTP server that only counts what it accepts (no parsing: the figure is our side's). */
async function startSink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export default async function newsletterBench(): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('bench/newsletter.ts needs BENCH_DATABASE_URL (set by bench/run.ts, or by running it alone)');
  const sink = await startSink();
  const uploads = mkdtempSync(path.join(os.tmpdir(), 'bench-newsletter-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    DATABASE_URL: databaseUrl,
    UPLOADS_DIR: uploads,
    LOG_LEVEL: 'warn',
    SMTP_URL: sink.url,
    MAIL_FROM: 'Bench <bench@example.test>',
  });
  const database = createDatabase(databaseUrl, { max: 10 });
  // The system clock, with a way to jump past the delivery lease for the retry figure.
  let offsetMs = 0;
  const app = await buildApp({ config, database, logger: false, clock: { now: () => new Date(Date.now() + offsetMs) } });
  await app.ready();
  try {
    const suffix = randomBytes(4).toString('hex');
    const [admin] = await database.db
      .insert(users)
      .values({ role: 'admin', staffRole: 'owner', name: `Bench newsletter ${suffix}`, email: `bench-newsletter-${suffix}@example.test` })
      .returning({ id: users.id });
    const { token } = await createSession(app, { userId: admin.id, role: 'admin' });
    for (let i = 0; i < SUBSCRIBERS; i += 1000) {
      await database.db.insert(newsletterSubscribers).values(
        Array.from({ length: Math.min(1000, SUBSCRIBERS - i) }, (_, j) => ({
          email: `reader-${i + j}-${suffix}@example.test`,
          status: 'subscribed' as const,
          unsubscribeToken: randomBytes(32).toString('base64url'),
          confirmedAt: new Date(),
        })),
      );
    }

    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/newsletter/issues',
      headers: { authorization: `Bearer ${token}` },
      payload: { subject: `Bench issue ${suffix}`, body: 'Harbour works: the new jetty is finished.\n\nNext: the crane pad.', idempotencyKey: randomUUID() },
    });
    const queuedMs = performance.now() - started;
    if (res.statusCode !== 201) throw new Error(`sending the issue failed: ${res.statusCode} ${res.body.slice(0, 200)}`);
    await waitFor(() => sink.received() >= SUBSCRIBERS, 10 * 60_000);
    const deliveredMs = performance.now() - started;
    const unsent = async () =>
      (await database.db.select({ n: count() }).from(mailOutbox).where(and(eq(mailOutbox.subject, `Bench issue ${suffix}`), eq(mailOutbox.status, 'pending'))))[0].n;
    await waitFor(async () => (await unsent()) === 0, 60_000);

    // A backlog the retry job owns: queued, then the lease passes (the clock jumps) and rounds drain it.
    const backlog = Array.from({ length: SUBSCRIBERS }, (_, i) => ({
      to: `backlog-${i}-${suffix}@example.test`,
      subject: `Bench backlog ${suffix}`,
      text: 'A mail left to the retries.',
      kind: 'bench-backlog',
    }));
    await queueMails(database.db, app, backlog);
    offsetMs = MAIL_DELIVERY_LEASE_MS;
    const drainStart = performance.now();
    const atStart = sink.received();
    let rounds = 0;
    while (sink.received() - atStart < SUBSCRIBERS) {
      rounds++;
      if ((await retryPendingMail(app)) === 0) break;
    }
    const drainMs = performance.now() - drainStart;
    const drained = sink.received() - atStart;
    await database.db.delete(mailOutbox).where(like(mailOutbox.to, `%-${suffix}@example.test`));

    return [
      { name: `newsletter issue to ${SUBSCRIBERS} subscribers: queued (POST, ms)`, value: fmt(queuedMs) },
      { name: `newsletter issue to ${SUBSCRIBERS} subscribers: all delivered to local SMTP (s)`, value: fmt(deliveredMs / 1000, 1) },
      { name: 'newsletter delivery (mails/s)', value: fmt(SUBSCRIBERS / (deliveredMs / 1000)) },
      { name: `retry job: ${drained} due mails drained in ${rounds} round(s) (s)`, value: fmt(drainMs / 1000, 1) },
      { name: 'retry job (mails/s)', value: fmt(drained / (drainMs / 1000)) },
    ];
  } finally {
    await app.close();
    await database.close();
    await sink.close();
    rmSync(uploads, { recursive: true, force: true });
  }
}

// Alone: an embedded PostgreSQL of its own in a temporary folder, migrated, then the figures.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-newsletter-pg-'));
  // Running as root, PostgreSQL runs as another user that must reach the folder (as bench/run.ts does).
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await freePort(), log: pino({ level: 'warn' }) });
  try {
    await runMigrations(pg.url);
    process.env.BENCH_DATABASE_URL = pg.url;
    for (const r of await newsletterBench()) console.log(`${r.name.padEnd(72)}  ${r.value}`);
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
