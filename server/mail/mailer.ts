import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { MailOutcome } from '../../common/schemas/mail.ts';
import type { PoolClient } from 'pg';
import type { AppConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { loadNodemailer } from '../lib/lazy-modules.ts';

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
  /** The message a notification is about: its mail is read again when it is sent (decision 260). */
  messageId?: string;
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
/**
 * No delivery starts this close to the end of its lease (longer than the SMTP timeouts of one send):
 * a send never overlaps with another process claiming the same mail after the lease.
 */
export const MAIL_LEASE_MARGIN_MS = 60_000;
const MAIL_RETRY_INTERVAL_MS = 60_000;
/** Due mails claimed per statement by a retry round; the round claims again while there is more. */
export const MAIL_RETRY_BATCH = 100;
/** A retry round stops claiming after this long (below the interval); the next tick goes on. */
const MAIL_RETRY_ROUND_MS = 50_000;
/** Rows per multi-row INSERT of queueMails (9 parameters each: far below PostgreSQL's 65,535). */
export const MAIL_INSERT_BATCH = 500;
/** ...or fewer, so that one statement never carries more than this much mail text. */
const MAIL_INSERT_MAX_CHARS = 8 * 1024 * 1024;
/** SMTP connections of the pooled transport, which is also how many mails are sent at once. */
export const MAIL_POOL_CONNECTIONS = 5;
/** Mails per pooled connection before it is replaced by a fresh one. */
const MAIL_POOL_MAX_MESSAGES = 100;
/** An idle pooled connection is closed after this long, so quiet servers hold no sockets. */
const MAIL_POOL_IDLE_MS = 30_000;

// One pooled transport per configuration (a Fastify app and its child contexts share one), closed by
// closeMailTransport when the app closes.
const transporters = new WeakMap<AppConfig, Transporter>();
const closedConfigs = new WeakSet<AppConfig>();
async function transporterFor(app: FastifyInstance, url: string): Promise<Transporter> {
  let t = transporters.get(app.config);
  if (t) return t;
  // Loaded with the first mail a process sends (decision 301): without SMTP_URL, never.
  const nodemailer = await loadNodemailer();
  // Another delivery may have made it while this one waited for the module.
  t = transporters.get(app.config);
  if (!t) {
    // Short timeouts: an unreachable SMTP server must not hold a visitor's request for minutes.
    // After the app closed, a late send (a background delivery) gets one connection of its own,
    // so no pool is left open that nobody will close.
    t = nodemailer.createTransport({
      url,
      pool: !closedConfigs.has(app.config),
      maxConnections: MAIL_POOL_CONNECTIONS,
      maxMessages: MAIL_POOL_MAX_MESSAGES,
      idleTimeout: MAIL_POOL_IDLE_MS,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    transporters.set(app.config, t);
  }
  return t;
}

/** Closes the pooled SMTP connections of this app (server/app.ts calls it when the app closes). */
export function closeMailTransport(app: FastifyInstance): void {
  closedConfigs.add(app.config);
  const t = transporters.get(app.config);
  if (!t) return;
  transporters.delete(app.config);
  // Connections busy with a mail finish it first, then close.
  t.close();
}

/** Escapes text for the HTML part of a mail. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/** A mail's content as it should leave now, or null when its cause is gone and it must not leave. */
export type MailRefresh = (app: FastifyInstance, row: OutboxRow) => Promise<Pick<MailInput, 'subject' | 'text' | 'html'> | null>;
const refreshes = new Map<string, MailRefresh>();

/**
 * Mails of `kind` about a message are read again just before each sending attempt (decision 260):
 * a notification queued for a message removed since is dropped, one for a message edited since says
 * what it says now. Registered by the module that writes such mails (a map, so this file imports no
 * module and no import cycle forms).
 */
export function refreshAtSendTime(kind: string, refresh: MailRefresh): void {
  refreshes.set(kind, refresh);
}

/** The content to send now; null after marking the row 'dropped'. */
async function currentContent(app: FastifyInstance, row: OutboxRow): Promise<Pick<MailInput, 'subject' | 'text' | 'html'> | null> {
  const refresh = row.messageId ? refreshes.get(row.kind) : undefined;
  if (!refresh) return { subject: row.subject, text: row.text, html: row.html ?? undefined };
  const content = await refresh(app, row);
  if (!content) {
    await app.db.update(mailOutbox).set({ status: 'dropped', nextAttemptAt: null }).where(eq(mailOutbox.id, row.id));
    app.log.info({ mailId: row.id, kind: row.kind }, 'queued mail dropped: the message it announced was removed');
  }
  return content;
}

async function deliver(app: FastifyInstance, row: OutboxRow): Promise<boolean> {
  const url = app.config.SMTP_URL;
  if (!url) return false;
  try {
    const content = await currentContent(app, row);
    if (!content) return false;
    const transporter = await transporterFor(app, url);
    await transporter.sendMail({
      from: app.config.MAIL_FROM,
      to: row.to,
      subject: content.subject,
      text: content.text,
      html: content.html,
      replyTo: row.replyTo ?? undefined,
      headers: row.headers ?? undefined,
    });
    await app.db
      .update(mailOutbox)
      // What left is what the outbox keeps (a refreshed notification says what it said when sent).
      .set({ ...content, html: content.html ?? null, status: 'sent', sentAt: app.clock.now(), attempts: row.attempts + 1, lastError: null, nextAttemptAt: null })
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

/** Sends rows a few at a time (the pool's connections), each only while its own deadline allows. */
async function deliverRows(
  app: FastifyInstance,
  rows: OutboxRow[],
  deadlineOf: (row: OutboxRow) => number,
  signal?: AbortSignal,
): Promise<{ delivered: number; left: number }> {
  let next = 0;
  let delivered = 0;
  let left = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++];
      // Too close to the end of its lease (or stopping): whoever claims it after the lease sends it instead.
      if (signal?.aborted || app.clock.now().getTime() >= deadlineOf(row)) {
        left++;
        continue;
      }
      if (await deliver(app, row)) delivered++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAIL_POOL_CONNECTIONS, rows.length) }, worker));
  return { delivered, left };
}

type OutboxInsert = typeof mailOutbox.$inferInsert;

function outboxValues(app: FastifyInstance, mail: MailInput, now: Date): OutboxInsert {
  return {
    id: randomUUID(),
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    kind: mail.kind,
    headers: mail.headers,
    replyTo: mail.replyTo,
    messageId: mail.messageId,
    status: app.config.SMTP_URL ? 'pending' : 'stored',
    createdAt: now,
    // The first delivery's lease: queued mails are not due for the retries until it has passed.
    nextAttemptAt: app.config.SMTP_URL ? new Date(now.getTime() + MAIL_DELIVERY_LEASE_MS) : null,
  };
}

/**
 * Records a mail in the outbox without sending it. Call inside the transaction that causes the mail,
 * then deliverQueuedMail() after the commit: a rolled-back change sends nothing, a committed one is
 * never without its mail (a failed delivery is retried).
 */
export async function queueMail(db: DbExecutor, app: FastifyInstance, mail: MailInput): Promise<string> {
  const [id] = await queueMails(db, app, [mail]);
  return id;
}

/**
 * queueMail inside a transaction held on a pool client (a statement run as plain SQL, such as a
 * message's send): the insert is written by the app's Drizzle instance and run on that client, so
 * no Drizzle instance is built per call.
 */
export async function queueMailOnClient(client: PoolClient, app: FastifyInstance, mail: MailInput): Promise<string> {
  const values = outboxValues(app, mail, app.clock.now());
  const insert = app.db.insert(mailOutbox).values(values).toSQL();
  await client.query(insert.sql, insert.params);
  return values.id!;
}

/**
 * queueMail for many mails: multi-row INSERTs of up to MAIL_INSERT_BATCH rows, in the caller's
 * transaction like queueMail. Returns the ids in the order of the mails.
 */
export async function queueMails(db: DbExecutor, app: FastifyInstance, mails: MailInput[]): Promise<string[]> {
  const now = app.clock.now();
  const ids: string[] = [];
  let batch: OutboxInsert[] = [];
  let chars = 0;
  const flush = async () => {
    if (!batch.length) return;
    await db.insert(mailOutbox).values(batch);
    batch = [];
    chars = 0;
  };
  for (const mail of mails) {
    const size = mail.text.length + (mail.html?.length ?? 0);
    if (batch.length >= MAIL_INSERT_BATCH || (batch.length && chars + size > MAIL_INSERT_MAX_CHARS)) await flush();
    const values = outboxValues(app, mail, now);
    batch.push(values);
    chars += size;
    ids.push(values.id!);
  }
  await flush();
  return ids;
}

/**
 * Sends mails queued by queueMail (now, in this process); failures stay pending for the retries.
 * A mail is sent here only on its first attempt and well within the lease it was queued with; later
 * it belongs to the retries (left counts those, so a long delivery can stop early).
 */
export async function deliverQueuedMail(app: FastifyInstance, ids: string[]): Promise<{ delivered: number; left: number }> {
  if (!ids.length) return { delivered: 0, left: 0 };
  const rows = await app.db.select().from(mailOutbox).where(inArray(mailOutbox.id, ids));
  const pending: OutboxRow[] = [];
  for (const row of rows) {
    if (row.status === 'stored') {
      app.log.info({ mailId: row.id, kind: row.kind }, 'mail stored in outbox (no SMTP_URL)');
      // A developer without SMTP needs the links in the mail; production logs must not carry them.
      if (!app.config.isProduction) app.log.info(`mail ${row.id} (${row.kind}) "${row.subject}":\n${row.text}`);
      continue;
    }
    if (row.status === 'pending' && row.attempts === 0) pending.push(row);
  }
  return deliverRows(app, pending, (row) => row.createdAt.getTime() + MAIL_DELIVERY_LEASE_MS - MAIL_LEASE_MARGIN_MS);
}

/** Whether mail can leave this server at all (SMTP_URL is set). */
export const mailConfigured = (app: FastifyInstance): boolean => Boolean(app.config.SMTP_URL);

/** What became of a mail sent now: for the screens that say so (see common/schemas/mail.ts). */
export const mailOutcomeOf = (app: FastifyInstance, delivered: boolean): MailOutcome =>
  !mailConfigured(app) ? 'not-configured' : delivered ? 'sent' : 'failed';

/** Whether a queued mail has gone out by now (after deliverQueuedMail, say). */
export async function mailWasSent(app: FastifyInstance, id: string): Promise<boolean> {
  const [row] = await app.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return row?.status === 'sent';
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

/**
 * Claims up to MAIL_RETRY_BATCH due mails for this process: locked with SKIP LOCKED (other processes
 * take other rows) and pushed a lease into the future in the same transaction (nobody else finds
 * them due until it has passed). A row another process claimed after this statement's snapshot is
 * re-checked on locking, and is no longer due.
 */
async function claimDueMail(app: FastifyInstance, now: Date): Promise<OutboxRow[]> {
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(mailOutbox.nextAttemptAt)
      .limit(MAIL_RETRY_BATCH)
      .for('update', { skipLocked: true });
    if (!due.length) return [];
    return tx
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + MAIL_DELIVERY_LEASE_MS) })
      .where(inArray(mailOutbox.id, due.map((r) => r.id)))
      .returning();
  });
}

/**
 * Retries the pending mails whose time has come; returns how many were sent. Claims a batch, sends
 * it over the pooled connections, and claims again while batches come back full, for at most
 * MAIL_RETRY_ROUND_MS: a backlog drains at the transport's speed, not one batch a minute. An abort
 * (the server stopping) ends the round after the mails being sent; the rest wait for their lease.
 */
export async function retryPendingMail(app: FastifyInstance, signal?: AbortSignal): Promise<number> {
  if (!app.config.SMTP_URL) return 0;
  const roundEnd = app.clock.now().getTime() + MAIL_RETRY_ROUND_MS;
  let sent = 0;
  for (;;) {
    if (signal?.aborted) return sent;
    const now = app.clock.now();
    const claimed = await claimDueMail(app, now);
    const deadline = now.getTime() + MAIL_DELIVERY_LEASE_MS - MAIL_LEASE_MARGIN_MS;
    sent += (await deliverRows(app, claimed, () => deadline, signal)).delivered;
    if (claimed.length < MAIL_RETRY_BATCH || app.clock.now().getTime() >= roundEnd) return sent;
  }
}

/**
 * Retries pending mail every interval while the server runs (started by server/start.ts, which stops
 * it before closing the app). The timer does not keep the process alive. Stopping ends a round under
 * way after the mails being sent; the promise it returns settles when that round has ended.
 */
export function startMailRetries(app: FastifyInstance, intervalMs = MAIL_RETRY_INTERVAL_MS): () => Promise<void> {
  let running: Promise<void> | null = null;
  const stopping = new AbortController();
  const timer = setInterval(() => {
    if (running || stopping.signal.aborted) return;
    running = retryPendingMail(app, stopping.signal)
      .then(() => undefined)
      .catch((err) => app.log.error({ err }, 'mail retry round failed'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    stopping.abort();
    clearInterval(timer);
    await running;
  };
}

/** How many mails are in each outbox state (the staff's mail status banner). */
export async function outboxCounts(app: FastifyInstance): Promise<Record<string, number>> {
  const rows = await app.db
    .select({ status: mailOutbox.status, count: sql<number>`count(*)::int` })
    .from(mailOutbox)
    .groupBy(mailOutbox.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.count]));
}
