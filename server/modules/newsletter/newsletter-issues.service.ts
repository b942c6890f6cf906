import { and, count, desc, eq, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  NEWSLETTER_ISSUES_PAGE_SIZE,
  type NewsletterIssue,
  type NewsletterIssueContent,
  type NewsletterSendIssueInput,
} from '../../../common/schemas/newsletter.ts';
import { newsletterIssues, newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { renderMail, type MailContent } from '../../mail/layout.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { deliverQueuedMail, mailOutcomeOf, queueMails, sendMail } from '../../mail/mailer.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { countNewsletterSubscribers, newsletterMail } from './newsletter.service.ts';
import { publishedCompany } from '../site-content/published-company.ts';

// Newsletter issues: the test mail, the send to every confirmed subscriber, and the list of what
// was sent. Subscribers (subscribe, confirm, unsubscribe, the list and its export) are in
// newsletter.service.ts.

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

/** The company identity every newsletter ends with (the published company profile, never a literal name). */
export function issueContent(app: FastifyInstance, content: NewsletterIssueContent, extraFooter: string[] = []): MailContent {
  const company = publishedCompany(app);
  return {
    subject: content.subject,
    paragraphs: newsletterParagraphs(content.body),
    footer: [...extraFooter, company.name, company.address, `${company.phone} · ${company.email}`],
    footerLinks: [{ label: `Visit the ${company.shortName} website`, url: app.config.publicUrl }],
  };
}

/** Mails the issue to the signed-in staff member only, marked as a test; nothing is recorded. */
export async function sendNewsletterTestMail(app: FastifyInstance, staff: { email: string }, content: NewsletterIssueContent): Promise<MailOutcome> {
  const rendered = renderMail(
    issueContent(app, { ...content, subject: `[Test] ${content.subject}` }, [
      'This is a test sent only to you. Each subscriber receives the newsletter with their own one-click unsubscribe link.',
    ]),
  );
  const { delivered } = await sendMail(app, { ...rendered, to: staff.email, kind: 'newsletter-test' });
  return mailOutcomeOf(app, delivered);
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
