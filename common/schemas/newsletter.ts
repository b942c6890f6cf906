import { z } from 'zod';

export { NEWSLETTER_MESSAGES } from '../newsletter.ts';

// The footer's newsletter box, with double opt-in and one-click unsubscribe.

/** How long a confirmation link works. */
export const NEWSLETTER_CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;

export const newsletterSubscribeSchema = z.object({
  email: z.string().trim().min(1, 'Please enter your email address').max(254).pipe(z.email('Please enter a valid email address')),
});
export const newsletterTokenSchema = z.object({ token: z.string().min(10).max(200) });
export const newsletterResultSchema = z.object({ success: z.literal(true), message: z.string() });
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
export const newsletterSubscriberSchema = z.object({
  _id: z.uuid(),
  email: z.string(),
  status: z.enum(NEWSLETTER_STATUSES),
  createdAt: z.iso.datetime(),
  confirmedAt: z.iso.datetime().nullable(),
  unsubscribedAt: z.iso.datetime().nullable(),
});
export type NewsletterSubscriber = z.infer<typeof newsletterSubscriberSchema>;
export const newsletterListResponseSchema = z.object({
  success: z.literal(true),
  subscribers: z.array(newsletterSubscriberSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type NewsletterListResponse = z.infer<typeof newsletterListResponseSchema>;
