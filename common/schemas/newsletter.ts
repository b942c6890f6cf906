import '../zod-setup.ts';
import { z } from 'zod';
import { NEWSLETTER_MESSAGES } from '../newsletter.ts';
import { refineSingleLine, storableText } from './text.ts';
import { multiline } from './line-endings.ts';
import { mailOutcomeSchema } from './mail.ts';
import { okResponse } from './ok-response.ts';

export { NEWSLETTER_MESSAGES };

// The footer's newsletter box, with double opt-in and one-click unsubscribe.

/** How long a confirmation link works. */
export const NEWSLETTER_CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;

export const newsletterSubscribeSchema = z.object({
  email: z.string().trim().min(1, NEWSLETTER_MESSAGES.emptyAddress).max(254).pipe(z.email(NEWSLETTER_MESSAGES.invalidAddress)),
});
export const newsletterTokenSchema = z.object({ token: z.string().min(10).max(200) });
export const newsletterResultSchema = okResponse({
  message: z.string(),
  /** For staff's test and send: whether the mail could leave (no transport, a failed send). */
  mail: mailOutcomeSchema.optional(),
});
export type NewsletterResult = z.infer<typeof newsletterResultSchema>;

export const NEWSLETTER_STATUSES = ['pending', 'subscribed', 'unsubscribed'] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];
export const NEWSLETTER_STATUS_LABELS: Record<NewsletterStatus, string> = {
  pending: 'Waiting for confirmation',
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
};

export const NEWSLETTER_LIST_PAGE_SIZE = 50;
export const newsletterListQuerySchema = z.object({
  status: z.enum(NEWSLETTER_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
const newsletterSubscriberSchema = z.object({
  _id: z.uuid(),
  email: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  createdAt: z.iso.datetime(),
  confirmedAt: z.iso.datetime().nullable(),
  unsubscribedAt: z.iso.datetime().nullable(),
});
export type NewsletterSubscriber = z.infer<typeof newsletterSubscriberSchema>;
export const newsletterListResponseSchema = okResponse({
  subscribers: z.array(newsletterSubscriberSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type NewsletterListResponse = z.infer<typeof newsletterListResponseSchema>;

// Newsletter issues: staff write one, send a test to themselves, then send it to every confirmed subscriber.

export const NEWSLETTER_SUBJECT_MAX_CHARS = 150;
export const NEWSLETTER_BODY_MAX_CHARS = 20_000;
export const NEWSLETTER_ISSUES_PAGE_SIZE = 50;

export const newsletterIssueContentSchema = z.object({
  // A subject is one line of a mail header; what else it may not hold is decision 195's.
  subject: refineSingleLine(
    storableText()
      .trim()
      .min(1, 'Please enter a subject')
      .max(NEWSLETTER_SUBJECT_MAX_CHARS, `The subject is too long (at most ${NEWSLETTER_SUBJECT_MAX_CHARS} characters)`)
      .regex(/^[^\r\n]*$/, 'The subject must be a single line'),
    'The subject',
  ),
  body: multiline(storableText())
    .trim()
    .min(1, 'Please write the newsletter')
    .max(NEWSLETTER_BODY_MAX_CHARS, `The newsletter is too long (at most ${NEWSLETTER_BODY_MAX_CHARS.toLocaleString('en-GB')} characters)`),
});
export type NewsletterIssueContent = z.infer<typeof newsletterIssueContentSchema>;

export const newsletterSendIssueSchema = newsletterIssueContentSchema.extend({
  /** Made by the composer once per issue: the server sends an issue with a given key at most once. */
  idempotencyKey: z.uuid('The send key must be a UUID'),
});
export type NewsletterSendIssueInput = z.infer<typeof newsletterSendIssueSchema>;

const newsletterIssueSchema = z.object({
  _id: z.uuid(),
  subject: z.string(),
  sentAt: z.iso.datetime(),
  sentBy: z.object({ _id: z.uuid().nullable(), name: z.string() }),
  recipientCount: z.number().int(),
});
export type NewsletterIssue = z.infer<typeof newsletterIssueSchema>;

export const newsletterIssuesQuerySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).default(1) });
export const newsletterIssuesResponseSchema = okResponse({
  issues: z.array(newsletterIssueSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Confirmed subscribers right now: who 'Send' would reach. */
  confirmedSubscribers: z.number().int(),
});
export type NewsletterIssuesResponse = z.infer<typeof newsletterIssuesResponseSchema>;

export const newsletterSendIssueResponseSchema = okResponse({ message: z.string(), mail: mailOutcomeSchema.optional(), issue: newsletterIssueSchema });
export type NewsletterSendIssueResponse = z.infer<typeof newsletterSendIssueResponseSchema>;

/** 'Send to 1 subscriber', 'Send to 12 subscribers'. */
export const subscribersLabel = (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'subscriber' : 'subscribers'}`;

export const NEWSLETTER_ISSUE_MESSAGES = {
  sent: (n: number) => `The newsletter is on its way to ${subscribersLabel(n)}.`,
  notSent: (n: number) =>
    `E-mail is not set up on this server (SMTP_URL), so the newsletter to ${subscribersLabel(n)} is kept in the outbox and was not sent.`,
  testSent: (email: string) => `A test was sent to ${email}.`,
  testNotSent: 'E-mail is not set up on this server (SMTP_URL), so the test was not sent.',
  testNotDelivered: (email: string) => `The test to ${email} could not be sent now; it will be retried.`,
  alreadySent: 'This newsletter has already been sent.',
  noSubscribers: 'There are no confirmed subscribers to send to yet.',
  sendFailed: 'Failed to send the newsletter',
  testFailed: 'Failed to send the test',
  loadFailed: 'Failed to load sent newsletters',
} as const;
