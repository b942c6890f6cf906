import { createHash, randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { company } from '../../../common/content/company.ts';
import { PATHS } from '../../../common/paths.ts';
import {
  NEWSLETTER_CONFIRM_TTL_MS,
  NEWSLETTER_ISSUES_PAGE_SIZE,
  NEWSLETTER_LIST_PAGE_SIZE,
  type NewsletterIssue,
  type NewsletterIssueContent,
  type NewsletterSendIssueInput,
  type NewsletterStatus,
  type NewsletterSubscriber,
} from '../../../common/schemas/newsletter.ts';
import { newsletterIssues, newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { renderMail, type MailContent } from '../../mail/layout.ts';
import { deliverQueuedMail, queueMail, queueMails, sendMail, type DbExecutor, type MailInput } from '../../mail/mailer.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { mayMailTypedAddress } from '../../mail/typed-address.ts';

type Row = typeof newsletterSubscribers.$inferSelect;

/**
 * Someone typing an address into the box mails that address; this long must pass before the same
 * address is mailed again, so the box cannot be used to flood someone's inbox.
 */
export const NEWSLETTER_REQUEST_MAIL_INTERVAL_MS = 10 * 60_000;

const newToken = () => randomBytes(32).toString('base64url');
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The links every newsletter mail carries: the page a person opens, and the RFC 8058 one-click POST target. */
function unsubscribeLinks(app: FastifyInstance, unsubscribeToken: string) {
  const token = encodeURIComponent(unsubscribeToken);
  return {
    page: `${app.config.publicUrl}${PATHS.newsletterUnsubscribe}?token=${token}`,
    oneClick: `${app.config.publicUrl}/api/newsletter/unsubscribe?token=${token}`,
  };
}

/**
 * A mail to a newsletter address: the content, plus the unsubscribe link in the footer and the
 * List-Unsubscribe headers that let mail programs offer a one-click unsubscribe button (RFC 8058).
 */
function newsletterMail(app: FastifyInstance, subscriber: { email: string; unsubscribeToken: string }, content: MailContent, kind: string): MailInput {
  const links = unsubscribeLinks(app, subscriber.unsubscribeToken);
  const mail = renderMail({
    ...content,
    // "this address", not the address itself: a +tag in it would be the typist's words (decision 190).
    footer: [...(content.footer ?? []), `You receive this because this address was entered in the newsletter box of the ${company.shortName} website.`],
    footerLinks: [...(content.footerLinks ?? []), { label: 'Unsubscribe with one click', url: links.page }],
  });
  return {
    ...mail,
    to: subscriber.email,
    kind,
    headers: {
      'List-Unsubscribe': `<${links.oneClick}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

function confirmationMail(app: FastifyInstance, subscriber: Row, confirmToken: string): MailInput {
  return newsletterMail(
    app,
    subscriber,
    {
      subject: `Please confirm your subscription to the ${company.shortName} newsletter`,
      greeting: 'Hello,',
      paragraphs: [
        `Someone, hopefully you, asked to receive the ${company.name} newsletter at this address.`,
        'To confirm, click the button below. If it was not you, ignore this mail and you will not hear from us again.',
      ],
      action: { label: 'Confirm my subscription', url: `${app.config.publicUrl}${PATHS.newsletterConfirm}?token=${encodeURIComponent(confirmToken)}` },
    },
    'newsletter-confirmation',
  );
}

function alreadySubscribedMail(app: FastifyInstance, subscriber: Row): MailInput {
  return newsletterMail(
    app,
    subscriber,
    {
      subject: `You are already subscribed to the ${company.shortName} newsletter`,
      greeting: 'Hello,',
      paragraphs: ['Someone entered this address in our newsletter box again. You are already on the list, so nothing changes.'],
    },
    'newsletter-already-subscribed',
  );
}

function welcomeMail(app: FastifyInstance, subscriber: Row): MailInput {
  return newsletterMail(
    app,
    subscriber,
    {
      subject: `Welcome to the ${company.shortName} newsletter`,
      greeting: 'Hello,',
      paragraphs: [
        'Your subscription is confirmed. We will write a few times a year about our projects and the industry.',
        'Every newsletter carries a link to unsubscribe with one click.',
      ],
      footer: [company.name],
    },
    'newsletter-welcome',
  );
}

async function setConfirmToken(db: DbExecutor, app: FastifyInstance, id: string, status: NewsletterStatus) {
  const confirmToken = newToken();
  const now = app.clock.now();
  const [row] = await db
    .update(newsletterSubscribers)
    .set({
      status,
      confirmTokenHash: hash(confirmToken),
      confirmTokenExpiresAt: new Date(now.getTime() + NEWSLETTER_CONFIRM_TTL_MS),
      lastRequestMailAt: now,
    })
    .where(eq(newsletterSubscribers.id, id))
    .returning();
  return { row, confirmToken };
}

/**
 * Puts an address on the list as pending and mails it a confirmation link (double opt-in). Asking
 * again is fine: a pending or unsubscribed address gets a fresh link, a subscribed one a short note,
 * never more than once per NEWSLETTER_REQUEST_MAIL_INTERVAL_MS.
 */
export async function subscribeToNewsletter(app: FastifyInstance, email: string): Promise<void> {
  const now = app.clock.now();
  const mailId = await app.db.transaction(async (tx) => {
    await tx
      .insert(newsletterSubscribers)
      .values({ email, status: 'pending', unsubscribeToken: newToken(), createdAt: now })
      .onConflictDoNothing();
    // Locked: two submissions of the same address at once send one mail.
    const [row] = await tx
      .select()
      .from(newsletterSubscribers)
      .where(sql`lower(${newsletterSubscribers.email}) = lower(${email})`)
      .for('update');
    if (row.lastRequestMailAt && now.getTime() - row.lastRequestMailAt.getTime() < NEWSLETTER_REQUEST_MAIL_INTERVAL_MS) return null;
    // A typed address (decision 190): a few mails a day per mailbox, however it is spelt.
    if (!(await mayMailTypedAddress(app, 'newsletter', email, tx))) return null;
    if (row.status === 'subscribed') {
      await tx.update(newsletterSubscribers).set({ lastRequestMailAt: now }).where(eq(newsletterSubscribers.id, row.id));
      return queueMail(tx, app, alreadySubscribedMail(app, row));
    }
    const { row: updated, confirmToken } = await setConfirmToken(tx, app, row.id, 'pending');
    return queueMail(tx, app, confirmationMail(app, updated, confirmToken));
  });
  if (mailId) await deliverQueuedMail(app, [mailId]);
}

/** Confirms the subscription of a confirmation link; false when the link is unknown or expired. */
export async function confirmNewsletterSubscription(app: FastifyInstance, token: string): Promise<boolean> {
  const now = app.clock.now();
  const result = await app.db.transaction(async (tx) => {
    const [row] = await tx.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.confirmTokenHash, hash(token))).for('update');
    if (!row) return { ok: false, mailId: null };
    // Clicking the link twice is fine; a link older than an unsubscribe is not a new consent.
    if (row.status === 'subscribed') return { ok: true, mailId: null };
    if (row.status !== 'pending' || !row.confirmTokenExpiresAt || row.confirmTokenExpiresAt <= now) return { ok: false, mailId: null };
    const [updated] = await tx
      .update(newsletterSubscribers)
      .set({ status: 'subscribed', confirmedAt: now, unsubscribedAt: null })
      .where(eq(newsletterSubscribers.id, row.id))
      .returning();
    return { ok: true, mailId: await queueMail(tx, app, welcomeMail(app, updated)) };
  });
  if (result.mailId) await deliverQueuedMail(app, [result.mailId]);
  return result.ok;
}

/** Takes the address of an unsubscribe link off the list; false when the link is unknown. */
export async function unsubscribeFromNewsletter(app: FastifyInstance, token: string): Promise<boolean> {
  const [row] = await app.db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.unsubscribeToken, token));
  if (!row) return false;
  if (row.status !== 'unsubscribed') {
    await app.db
      .update(newsletterSubscribers)
      .set({ status: 'unsubscribed', unsubscribedAt: app.clock.now() })
      .where(eq(newsletterSubscribers.id, row.id));
  }
  return true;
}

const toApi = (r: Row): NewsletterSubscriber => ({
  _id: r.id,
  email: r.email,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
  confirmedAt: r.confirmedAt?.toISOString() ?? null,
  unsubscribedAt: r.unsubscribedAt?.toISOString() ?? null,
});

/** Staff's list of subscribers, newest first, optionally one status. */
export async function listNewsletterSubscribers(
  app: FastifyInstance,
  query: { status?: NewsletterStatus; page: number },
): Promise<{ subscribers: NewsletterSubscriber[]; total: number }> {
  const where = query.status ? eq(newsletterSubscribers.status, query.status) : undefined;
  const rows = await app.db
    .select()
    .from(newsletterSubscribers)
    .where(where)
    .orderBy(desc(newsletterSubscribers.createdAt), desc(newsletterSubscribers.id))
    .limit(NEWSLETTER_LIST_PAGE_SIZE)
    .offset((query.page - 1) * NEWSLETTER_LIST_PAGE_SIZE);
  const [{ total }] = await app.db.select({ total: count() }).from(newsletterSubscribers).where(where);
  return { subscribers: rows.map(toApi), total };
}

/** Every subscriber (optionally one status), oldest first, for the CSV export. */
async function allNewsletterSubscribers(app: FastifyInstance, status?: NewsletterStatus): Promise<NewsletterSubscriber[]> {
  const rows = await app.db
    .select()
    .from(newsletterSubscribers)
    .where(status ? eq(newsletterSubscribers.status, status) : undefined)
    .orderBy(newsletterSubscribers.createdAt, newsletterSubscribers.id);
  return rows.map(toApi);
}

/** A CSV cell: quoted, and a leading = + - @ neutralised so spreadsheets do not run it as a formula. */
function csvCell(value: string | null): string {
  const v = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Every subscriber (optionally one status) as a CSV file, named for today. */
export async function exportNewsletterSubscribers(app: FastifyInstance, status?: NewsletterStatus): Promise<{ fileName: string; csv: string }> {
  const rows = await allNewsletterSubscribers(app, status);
  const lines = [
    'email,status,created_at,confirmed_at,unsubscribed_at',
    ...rows.map((r) => [r.email, r.status, r.createdAt, r.confirmedAt, r.unsubscribedAt].map(csvCell).join(',')),
  ];
  const day = app.clock.now().toISOString().slice(0, 10);
  return { fileName: `newsletter-subscribers-${day}.csv`, csv: `${lines.join('\r\n')}\r\n` };
}

/** Subscriber counts by status. */
export async function countNewsletterSubscribers(app: FastifyInstance): Promise<Record<NewsletterStatus, number>> {
  const rows = await app.db
    .select({ status: newsletterSubscribers.status, n: count() })
    .from(newsletterSubscribers)
    .groupBy(newsletterSubscribers.status);
  const counts = { pending: 0, subscribed: 0, unsubscribed: 0 };
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}

// ---------------------------------------------------------------------------------------------
// Newsletter issues

/** Subscribers read and mailed per round inside the sending transaction (bounded memory for long lists). */
export const NEWSLETTER_SEND_BATCH = 500;
/** Mails handed to the outbox's delivery per round after the commit (it sends them over its pooled connections). */
const DELIVERY_CHUNK = 100;

/** Paragraphs of a plain-text body: blocks separated by blank lines; single line breaks stay inside. */
function newsletterParagraphs(body: string): string[] {
  return body
    .split(/\r?\n[ \t]*\r?\n/)
    .map((p) => p.replace(/^\s+|\s+$/g, ''))
    .filter(Boolean);
}

/** The company identity every newsletter ends with (common/content/company.ts, never a literal name). */
function issueContent(app: FastifyInstance, content: NewsletterIssueContent, extraFooter: string[] = []): MailContent {
  return {
    subject: content.subject,
    paragraphs: newsletterParagraphs(content.body),
    footer: [...extraFooter, company.name, company.address, `${company.phone} · ${company.email}`],
    footerLinks: [{ label: `Visit the ${company.shortName} website`, url: app.config.publicUrl }],
  };
}

/** Mails the issue to the signed-in staff member only, marked as a test; nothing is recorded. */
export async function sendNewsletterTestMail(app: FastifyInstance, staff: { email: string }, content: NewsletterIssueContent): Promise<void> {
  const rendered = renderMail(
    issueContent(app, { ...content, subject: `[Test] ${content.subject}` }, [
      'This is a test sent only to you. Each subscriber receives the newsletter with their own one-click unsubscribe link.',
    ]),
  );
  await sendMail(app, { ...rendered, to: staff.email, kind: 'newsletter-test' });
}

type IssueRow = typeof newsletterIssues.$inferSelect;
const issueToApi = (r: IssueRow): NewsletterIssue => ({
  _id: r.id,
  subject: r.subject,
  sentAt: r.sentAt.toISOString(),
  sentBy: { _id: r.sentById, name: r.sentByName },
  recipientCount: r.recipientCount,
});

class NoSubscribers extends Error {}

export type SendIssueResult = { status: 'sent'; issue: NewsletterIssue; mailIds: string[] } | { status: 'duplicate' } | { status: 'no-subscribers' };

/**
 * Sends an issue to every confirmed subscriber: recorded with its queued mails in one transaction
 * (recordNewsletterIssue), then delivered after the commit, handed to `later` (what is not sent
 * stays pending in the outbox for the retries).
 */
export async function sendNewsletterIssue(
  app: FastifyInstance,
  later: AfterAnswer,
  sender: { _id: string; name: string },
  input: NewsletterSendIssueInput,
): Promise<SendIssueResult> {
  const result = await recordNewsletterIssue(app, sender, input);
  if (result.status === 'sent') {
    later(deliverIssueMail(app, result.mailIds), 'newsletter delivery stopped; the outbox retries the rest', { issueId: result.issue._id });
  }
  return result;
}

/**
 * Records the issue and queues one mail per confirmed subscriber, each with its own unsubscribe link
 * and List-Unsubscribe headers, all in ONE transaction: a failure half-way leaves neither the issue
 * nor any of its mails. A second call with the same idempotency key sends nothing ('duplicate'):
 * the unique key makes a concurrent second request wait for the first and then find it.
 */
async function recordNewsletterIssue(
  app: FastifyInstance,
  sender: { _id: string; name: string },
  input: NewsletterSendIssueInput,
): Promise<SendIssueResult> {
  const content = issueContent(app, input);
  return app.db.transaction(async (tx): Promise<SendIssueResult> => {
    const [issue] = await tx
      .insert(newsletterIssues)
      .values({
        subject: input.subject,
        body: input.body,
        sentById: sender._id,
        sentByName: sender.name,
        sentAt: app.clock.now(),
        recipientCount: 0,
        idempotencyKey: input.idempotencyKey,
      })
      .onConflictDoNothing({ target: newsletterIssues.idempotencyKey })
      .returning();
    if (!issue) return { status: 'duplicate' };

    const mailIds: string[] = [];
    let after: string | undefined;
    for (;;) {
      // Keyset pages by id: stable while we insert, and never more than one batch in memory.
      const batch = await tx
        .select({ id: newsletterSubscribers.id, email: newsletterSubscribers.email, unsubscribeToken: newsletterSubscribers.unsubscribeToken })
        .from(newsletterSubscribers)
        .where(and(eq(newsletterSubscribers.status, 'subscribed'), after ? gt(newsletterSubscribers.id, after) : undefined))
        .orderBy(newsletterSubscribers.id)
        .limit(NEWSLETTER_SEND_BATCH);
      // One multi-row INSERT per batch, still inside this transaction (decision 076).
      mailIds.push(...(await queueMails(tx, app, batch.map((subscriber) => newsletterMail(app, subscriber, content, 'newsletter-issue')))));
      if (batch.length < NEWSLETTER_SEND_BATCH) break;
      after = batch[batch.length - 1].id;
    }
    // Nothing to send: the issue is not recorded (the rollback also frees the key for a later try).
    if (!mailIds.length) throw new NoSubscribers();
    const [updated] = await tx
      .update(newsletterIssues)
      .set({ recipientCount: mailIds.length })
      .where(eq(newsletterIssues.id, issue.id))
      .returning();
    return { status: 'sent', issue: issueToApi(updated), mailIds };
  }).catch((err: unknown) => {
    if (err instanceof NoSubscribers) return { status: 'no-subscribers' } as const;
    throw err;
  });
}

/**
 * Hands an issue's queued mails to the outbox delivery after the commit, a chunk at a time (the
 * outbox sends each chunk over its pooled SMTP connections). The outbox sends a mail only well
 * within the lease it was queued with; once it leaves mails to the retry job, so does this loop, so
 * no mail is sent by both. Failures stay pending and are retried by that job as well.
 */
async function deliverIssueMail(app: FastifyInstance, mailIds: string[]): Promise<void> {
  if (!app.config.SMTP_URL) {
    app.log.info({ mails: mailIds.length }, 'newsletter stored in the outbox (no SMTP_URL)');
    return;
  }
  for (let next = 0; next < mailIds.length; next += DELIVERY_CHUNK) {
    const { left } = await deliverQueuedMail(app, mailIds.slice(next, next + DELIVERY_CHUNK));
    if (left) {
      app.log.info({ left: Math.max(0, mailIds.length - next - DELIVERY_CHUNK) + left }, 'newsletter delivery handed to the outbox retries');
      return;
    }
  }
}

/** One page of the issues already sent, and how many confirmed subscribers a new one would reach. */
export async function newsletterIssuesOverview(
  app: FastifyInstance,
  page: number,
): Promise<{ issues: NewsletterIssue[]; total: number; confirmedSubscribers: number }> {
  const [result, counts] = await Promise.all([listNewsletterIssues(app, page), countNewsletterSubscribers(app)]);
  return { ...result, confirmedSubscribers: counts.subscribed };
}

/** Issues already sent, newest first. */
async function listNewsletterIssues(app: FastifyInstance, page: number): Promise<{ issues: NewsletterIssue[]; total: number }> {
  const rows = await app.db
    .select()
    .from(newsletterIssues)
    .orderBy(desc(newsletterIssues.sentAt), desc(newsletterIssues.id))
    .limit(NEWSLETTER_ISSUES_PAGE_SIZE)
    .offset((page - 1) * NEWSLETTER_ISSUES_PAGE_SIZE);
  const [{ total }] = await app.db.select({ total: count() }).from(newsletterIssues);
  return { issues: rows.map(issueToApi), total };
}
