import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';

export interface MailInput {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is about (invitation, password-reset, vendor-application-staff, ...), for finding it again. */
  kind: string;
  /** Extra headers such as List-Unsubscribe; kept with the mail so retries send them too. */
  headers?: Record<string, string>;
  replyTo?: string;
}

/** The database, or a transaction of it: mails can be queued in the same transaction as their cause. */
export type DbExecutor = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export const MAIL_MAX_ATTEMPTS = 5;
/** Waits 1, 2, 4, 8 minutes between attempts. */
export const MAIL_RETRY_BASE_MS = 60_000;
/**
 * A mail being delivered is not due for a retry until this much later, so a retry in another process
 * (or a later tick) never sends it twice; a process that dies mid-delivery leaves it to be retried.
 */
export const MAIL_DELIVERY_LEASE_MS = 5 * 60_000;
export const MAIL_RETRY_INTERVAL_MS = 60_000;
const RETRY_BATCH = 50;

const transporters = new Map<string, Transporter>();
function transporterFor(url: string): Transporter {
  let t = transporters.get(url);
  if (!t) {
    // Short timeouts: an unreachable SMTP server must not hold a visitor's request for minutes.
    t = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    transporters.set(url, t);
  }
  return t;
}

/** Escapes text for the HTML part of a mail. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

type OutboxRow = typeof mailOutbox.$inferSelect;

async function deliver(app: FastifyInstance, row: OutboxRow): Promise<boolean> {
  const url = app.config.SMTP_URL;
  if (!url) return false;
  try {
    await transporterFor(url).sendMail({
      from: app.config.MAIL_FROM,
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html ?? undefined,
      replyTo: row.replyTo ?? undefined,
      headers: row.headers ?? undefined,
    });
    await app.db
      .update(mailOutbox)
      .set({ status: 'sent', sentAt: app.clock.now(), attempts: row.attempts + 1, lastError: null, nextAttemptAt: null })
      .where(eq(mailOutbox.id, row.id));
    return true;
  } catch (err) {
    const next = row.attempts + 1;
    const failed = next >= MAIL_MAX_ATTEMPTS;
    await app.db
      .update(mailOutbox)
      .set({
        status: failed ? 'failed' : 'pending',
        attempts: next,
        lastError: (err as Error).message.slice(0, 500),
        nextAttemptAt: failed ? null : new Date(app.clock.now().getTime() + MAIL_RETRY_BASE_MS * 2 ** row.attempts),
      })
      .where(eq(mailOutbox.id, row.id));
    // The address is personal data and the text may hold a link with a token: log the id only.
    app.log.warn({ err, mailId: row.id, kind: row.kind, attempt: next }, failed ? 'mail delivery failed for good' : 'mail delivery failed; will retry');
    return false;
  }
}

/**
 * Records a mail in the outbox without sending it. Call inside the transaction that causes the mail,
 * then deliverQueuedMail() after the commit: a rolled-back change sends nothing, a committed one is
 * never without its mail (a failed delivery is retried).
 */
export async function queueMail(db: DbExecutor, app: FastifyInstance, mail: MailInput): Promise<string> {
  const now = app.clock.now();
  const [row] = await db
    .insert(mailOutbox)
    .values({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      kind: mail.kind,
      headers: mail.headers,
      replyTo: mail.replyTo,
      status: app.config.SMTP_URL ? 'pending' : 'stored',
      createdAt: now,
      nextAttemptAt: app.config.SMTP_URL ? new Date(now.getTime() + MAIL_DELIVERY_LEASE_MS) : null,
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}

/** Sends mails queued by queueMail (now, in this process); failures stay pending for the retries. */
export async function deliverQueuedMail(app: FastifyInstance, ids: string[]): Promise<{ delivered: number }> {
  if (!ids.length) return { delivered: 0 };
  const rows = await app.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
  let delivered = 0;
  for (const row of rows) {
    if (row.status === 'stored') {
      app.log.info({ mailId: row.id, kind: row.kind }, 'mail stored in outbox (no SMTP_URL)');
      // A developer without SMTP needs the links in the mail; production logs must not carry them.
      if (!app.config.isProduction) app.log.info(`mail ${row.id} (${row.kind}) "${row.subject}":\n${row.text}`);
      continue;
    }
    if (row.status === 'pending' && (await deliver(app, row))) delivered++;
  }
  return { delivered };
}

/**
 * Records the mail in the outbox and sends it over SMTP when configured. Without SMTP the mail
 * stays in the outbox (status 'stored') and is written to the log (outside production).
 */
export async function sendMail(app: FastifyInstance, mail: MailInput): Promise<{ id: string; delivered: boolean }> {
  const id = await queueMail(app.db, app, mail);
  const { delivered } = await deliverQueuedMail(app, [id]);
  return { id, delivered: delivered === 1 };
}

/** Retries the pending mails whose time has come; returns how many were sent. */
export async function retryPendingMail(app: FastifyInstance): Promise<number> {
  if (!app.config.SMTP_URL) return 0;
  const now = app.clock.now();
  // Claims due mails by pushing their next attempt past the lease; SKIP LOCKED lets processes share the work.
  const claimed = await app.db
    .update(mailOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + MAIL_DELIVERY_LEASE_MS) })
    .where(
      inArray(
        mailOutbox.id,
        app.db
          .select({ id: mailOutbox.id })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)))
          .orderBy(mailOutbox.nextAttemptAt)
          .limit(RETRY_BATCH)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
  let sent = 0;
  for (const row of claimed) {
    if (await deliver(app, row)) sent++;
  }
  return sent;
}

/**
 * Retries pending mail every interval while the server runs (started by server/start.ts, which stops
 * it before closing the app). The timer does not keep the process alive.
 */
export function startMailRetries(app: FastifyInstance, intervalMs = MAIL_RETRY_INTERVAL_MS): () => void {
  let running = false;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = true;
    retryPendingMail(app)
      .catch((err) => app.log.error({ err }, 'mail retry round failed'))
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}

/** How many mails are in each outbox state (health and tests). */
export async function outboxCounts(app: FastifyInstance): Promise<Record<string, number>> {
  const rows = await app.db
    .select({ status: mailOutbox.status, count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .groupBy(mailOutbox.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.count]));
}
