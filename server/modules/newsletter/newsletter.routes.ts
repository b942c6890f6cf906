import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, conflict, notFound, unauthenticated } from '../../../common/errors.ts';
import { formGuardFieldsSchema } from '../../../common/schemas/forms.ts';
import {
  NEWSLETTER_ISSUE_MESSAGES,
  NEWSLETTER_ISSUES_PAGE_SIZE,
  NEWSLETTER_LIST_PAGE_SIZE,
  NEWSLETTER_MESSAGES,
  NEWSLETTER_STATUSES,
  newsletterIssueContentSchema,
  newsletterIssuesQuerySchema,
  newsletterIssuesResponseSchema,
  newsletterListQuerySchema,
  newsletterListResponseSchema,
  newsletterResultSchema,
  newsletterSendIssueResponseSchema,
  newsletterSendIssueSchema,
  newsletterSubscribeSchema,
  newsletterTokenSchema,
} from '../../../common/schemas/newsletter.ts';
import { checkFormGuard, enforceFormRateLimit } from '../../lib/form-guard.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { mailConfigured } from '../../mail/mailer.ts';
import {
  confirmNewsletterSubscription,
  exportNewsletterSubscribers,
  listNewsletterSubscribers,
  subscribeToNewsletter,
  unsubscribeFromNewsletter,
} from './newsletter.service.ts';
import { newsletterIssuesOverview, sendNewsletterIssue, sendNewsletterTestMail } from './newsletter-issues.service.ts';

const NEWSLETTER_BODY_LIMIT_BYTES = 4 * 1024;
/** An issue's JSON: 20,000 characters of body (up to 4 bytes each in UTF-8, escaped), subject and key. */
const ISSUE_BODY_LIMIT_BYTES = 128 * 1024;

const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  // Mail programs send the RFC 8058 one-click unsubscribe as a form post; this parser is local to these routes.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: NEWSLETTER_BODY_LIMIT_BYTES }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // An issue's mails are delivered after the response; closing the app waits for the deliveries under
  // way (what is not sent yet stays pending in the outbox for the retries).
  const later = afterAnswer(app);

  app.post(
    '/newsletter/subscribe',
    {
      config: { access: 'public' },
      bodyLimit: NEWSLETTER_BODY_LIMIT_BYTES,
      schema: {
        tags: ['newsletter'],
        summary: 'Ask for the newsletter: a confirmation link is mailed to the address (double opt-in)',
        body: newsletterSubscribeSchema.extend(formGuardFieldsSchema.shape),
        response: { 200: newsletterResultSchema },
      },
    },
    async (request, reply) => {
      await enforceFormRateLimit(app, request, reply, 'newsletter');
      const { email, formToken, homepageUrl } = request.body;
      if ((await checkFormGuard(app, 'newsletter', { formToken, homepageUrl })) === 'accept') {
        await subscribeToNewsletter(app, email);
      } else {
        request.log.info('newsletter subscription dropped by the bot guard');
      }
      return { success: true as const, message: mailConfigured(app) ? NEWSLETTER_MESSAGES.checkInbox : NEWSLETTER_MESSAGES.noMail };
    },
  );

  app.post(
    '/newsletter/confirm',
    {
      config: { access: 'public' },
      bodyLimit: NEWSLETTER_BODY_LIMIT_BYTES,
      schema: {
        tags: ['newsletter'],
        summary: 'Confirm a subscription with the token of the confirmation link',
        body: newsletterTokenSchema,
        response: { 200: newsletterResultSchema },
      },
    },
    async (request) => {
      if (!(await confirmNewsletterSubscription(app, request.body.token))) throw notFound(NEWSLETTER_MESSAGES.badLink);
      return { success: true as const, message: NEWSLETTER_MESSAGES.confirmed };
    },
  );

  app.post(
    '/newsletter/unsubscribe',
    {
      config: { access: 'public' },
      bodyLimit: NEWSLETTER_BODY_LIMIT_BYTES,
      schema: {
        tags: ['newsletter'],
        summary: 'Unsubscribe: JSON { token } from the unsubscribe page, or the RFC 8058 one-click post with ?token=',
        querystring: z.object({ token: z.string().max(200).optional() }),
        body: z.object({ token: z.string().max(200).optional() }).passthrough().optional(),
        response: { 200: newsletterResultSchema },
      },
    },
    async (request) => {
      const token = request.body?.token ?? request.query.token;
      if (!token || !(await unsubscribeFromNewsletter(app, token))) throw notFound(NEWSLETTER_MESSAGES.badLink);
      return { success: true as const, message: NEWSLETTER_MESSAGES.unsubscribed };
    },
  );

  app.get(
    '/newsletter/subscribers',
    {
      config: { access: { staff: 'newsletter.write' } },
      schema: {
        tags: ['newsletter'],
        summary: 'Newsletter subscribers, newest first, optionally one status',
        querystring: newsletterListQuerySchema,
        response: { 200: newsletterListResponseSchema },
      },
    },
    async (request) => {
      const result = await listNewsletterSubscribers(app, request.query);
      return { success: true as const, ...result, page: request.query.page, pageSize: NEWSLETTER_LIST_PAGE_SIZE };
    },
  );

  app.get(
    '/newsletter/subscribers/export',
    {
      config: { access: { staff: 'newsletter.write' } },
      schema: {
        tags: ['newsletter'],
        summary: 'Every subscriber as a CSV file (optionally one status)',
        querystring: z.object({ status: z.enum(NEWSLETTER_STATUSES).optional() }),
      },
    },
    async (request, reply) => {
      const { fileName, csv } = await exportNewsletterSubscribers(app, request.query.status);
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${fileName}"`)
        .header('Cache-Control', 'private, no-store')
        .send(csv);
    },
  );

  app.get(
    '/newsletter/issues',
    {
      config: { access: { staff: 'newsletter.write' } },
      schema: {
        tags: ['newsletter'],
        summary: 'Newsletters already sent, newest first, and how many confirmed subscribers a new one would reach',
        querystring: newsletterIssuesQuerySchema,
        response: { 200: newsletterIssuesResponseSchema },
      },
    },
    async (request) => {
      const { issues, total, confirmedSubscribers } = await newsletterIssuesOverview(app, request.query.page);
      return { success: true as const, issues, total, page: request.query.page, pageSize: NEWSLETTER_ISSUES_PAGE_SIZE, confirmedSubscribers };
    },
  );

  app.post(
    '/newsletter/issues/test',
    {
      config: { access: { staff: 'newsletter.write' } },
      bodyLimit: ISSUE_BODY_LIMIT_BYTES,
      schema: {
        tags: ['newsletter'],
        summary: 'Send a newsletter as a test to the signed-in staff member only (nothing is recorded)',
        body: newsletterIssueContentSchema,
        response: { 200: newsletterResultSchema },
      },
    },
    async (request) => {
      const staff = request.user;
      if (!staff) throw unauthenticated();
      const outcome = await sendNewsletterTestMail(app, staff, request.body);
      const M = NEWSLETTER_ISSUE_MESSAGES;
      const message = outcome === 'sent' ? M.testSent(staff.email) : outcome === 'failed' ? M.testNotDelivered(staff.email) : M.testNotSent;
      return { success: true as const, message, mail: outcome };
    },
  );

  app.post(
    '/newsletter/issues',
    {
      config: { access: { staff: 'newsletter.write' } },
      bodyLimit: ISSUE_BODY_LIMIT_BYTES,
      schema: {
        tags: ['newsletter'],
        summary: 'Send a newsletter to every confirmed subscriber (once per idempotency key); delivery continues in the background',
        body: newsletterSendIssueSchema,
        response: { 201: newsletterSendIssueResponseSchema },
      },
    },
    async (request, reply) => {
      const staff = request.user;
      if (!staff) throw unauthenticated();
      const result = await sendNewsletterIssue(app, later, staff, request.body);
      if (result.status === 'duplicate') throw conflict(NEWSLETTER_ISSUE_MESSAGES.alreadySent);
      if (result.status === 'no-subscribers') throw new AppError('BAD_REQUEST', NEWSLETTER_ISSUE_MESSAGES.noSubscribers);
      const n = result.issue.recipientCount;
      const configured = mailConfigured(app);
      const message = configured ? NEWSLETTER_ISSUE_MESSAGES.sent(n) : NEWSLETTER_ISSUE_MESSAGES.notSent(n);
      return reply.status(201).send({ success: true as const, message, mail: configured ? ('sent' as const) : ('not-configured' as const), issue: result.issue });
    },
  );
};

export default newsletterRoutes;
