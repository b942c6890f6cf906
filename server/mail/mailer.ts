import { and, eq, lte } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { mailOutbox } from '../db/schema/mail.ts';

export interface MailInput {
  to: string;
  subject: string;
  text: string;
  html?: string;
  kind: string;
}

const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 60_000;

const transporters = new Map<string, Transporter>();
function transporterFor(url: string): Transporter {
  let t = transporters.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transporters.set(url, t);
  }
  return t;
}

/** Escapes text for the HTML part of a mail. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

async function deliver(app: FastifyInstance, id: string, mail: MailInput, attempts: number): Promise<boolean> {
  const url = app.config.SMTP_URL;
  if (!url) return false;
  try {
    await transporterFor(url).sendMail({ from: app.config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    await app.db.update(mailOutbox).set({ status: 'sent', sentAt: app.clock.now(), attempts: attempts + 1, lastError: null }).where(eq(mailOutbox.id, id));
    return true;
  } catch (err) {
    const next = attempts + 1;
    await app.db
      .update(mailOutbox)
      .set({
        status: next >= MAX_ATTEMPTS ? 'failed' : 'pending',
        attempts: next,
        lastError: (err as Error).message.slice(0, 500),
        nextAttemptAt: new Date(app.clock.now().getTime() + RETRY_BASE_MS * 2 ** attempts),
      })
      .where(eq(mailOutbox.id, id));
    app.log.warn({ err, mailId: id }, 'mail delivery failed; will retry');
    return false;
  }
}

/**
 * Records the mail in the outbox and sends it over SMTP when configured. Without SMTP the mail
 * stays in the outbox (status 'stored') and is written to the log, so nothing is lost locally.
 */
export async function sendMail(app: FastifyInstance, mail: MailInput): Promise<{ id: string; delivered: boolean }> {
  const [row] = await app.db
    .insert(mailOutbox)
    .values({ ...mail, status: app.config.SMTP_URL ? 'pending' : 'stored', createdAt: app.clock.now() })
    .returning({ id: mailOutbox.id });
  if (!app.config.SMTP_URL) {
    app.log.info({ mailId: row.id, to: mail.to, subject: mail.subject, kind: mail.kind }, `mail stored in outbox (no SMTP_URL):\n${mail.text}`);
    return { id: row.id, delivered: false };
  }
  return { id: row.id, delivered: await deliver(app, row.id, mail, 0) };
}

/** Retries the pending mails whose time has come; returns how many were sent. */
export async function retryPendingMail(app: FastifyInstance): Promise<number> {
  const due = await app.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, app.clock.now())))
    .limit(50);
  let sent = 0;
  for (const m of due) {
    if (await deliver(app, m.id, { to: m.to, subject: m.subject, text: m.text, html: m.html ?? undefined, kind: m.kind }, m.attempts)) sent++;
  }
  return sent;
}
