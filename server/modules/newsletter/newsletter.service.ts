import { createHash, randomBytes } from 'node:crypto';
import { count, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PATHS } from '../../../common/paths.ts';
import {
  NEWSLETTER_CONFIRM_TTL_MS,
  NEWSLETTER_LIST_PAGE_SIZE,
  type NewsletterStatus,
  type NewsletterSubscriber,
} from '../../../common/schemas/newsletter.ts';
import { newsletterSubscribers } from '../../db/schema/newsletter.ts';
import { renderMail, type MailContent } from '../../mail/layout.ts';
import { deliverQueuedMail, queueMail, type DbExecutor, type MailInput } from '../../mail/mailer.ts';
import { mayMailTypedAddress } from '../../mail/typed-address.ts';
import { todayIso } from '../../../common/dates.ts';
import { publishedCompany } from '../site-content/published-company.ts';

type Row = typeof newsletterSubscribers.$inferSelect;
/** What a newsletter mail needs of its subscriber. */
type Subscriber = Pick<Row, 'email' | 'unsubscribeToken'>;

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
export function newsletterMail(app: FastifyInstance, subscriber: { email: string; unsubscribeToken: string }, content: MailContent, kind: string): MailInput {
  const links = unsubscribeLinks(app, subscriber.unsubscribeToken);
  const company = publishedCompany(app);
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

export function confirmationMail(app: FastifyInstance, subscriber: Subscriber, confirmToken: string): MailInput {
  const company = publishedCompany(app);
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

export function alreadySubscribedMail(app: FastifyInstance, subscriber: Subscriber): MailInput {
  const company = publishedCompany(app);
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

export function welcomeMail(app: FastifyInstance, subscriber: Subscriber): MailInput {
  const company = publishedCompany(app);
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
  const day = todayIso(app.clock.now());
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
