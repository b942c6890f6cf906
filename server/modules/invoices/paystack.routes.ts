import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema } from '../../../common/errors.ts';
import { financeIdParamsSchema, payOnlineResponseSchema } from '../../../common/schemas/invoices.ts';
import { okResponse } from '../../../common/schemas/ok-response.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { recordRouteErrors as errors } from '../../lib/archive-routes.ts';
import { enforceRateLimit, type RateLimitRule } from '../../lib/rate-limit.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { auditOf } from '../audit/audit.ts';
import { clientAddressOf, visitorLimitKeyOf } from '../auth/admin-network.ts';
import { handleWebhook, startCheckout } from './paystack.service.ts';

/** The largest webhook body read: Paystack's charge events are a few kilobytes. */
const PAYSTACK_WEBHOOK_MAX_BYTES = 64 * 1024;
/** Checkouts one person may start (each is a row and a call to Paystack). */
const PAY_ONLINE_RATE_LIMIT: RateLimitRule = { bucket: 'pay-online', limit: 20, windowMs: 10 * 60_000 };
/** Events one address may send (Paystack sends from a few addresses, so the limit is generous). */
const PAYSTACK_WEBHOOK_RATE_LIMIT: RateLimitRule = { bucket: 'paystack-webhook', limit: 300, windowMs: 60_000 };
const TRY_LATER = (wait: string) => `Too many attempts. Try again in ${wait}.`;

const webhookResponseSchema = okResponse({});

// Online payment (issue 26, decision 298): a client's finance member or approver starts a checkout;
// Paystack's webhook, signed with our secret key, reports the charge.
const paystackRoutes: FastifyPluginAsyncZod = async (app) => {
  const later = afterAnswer(app);

  app.post(
    '/invoices/:id/pay-online',
    {
      config: { access: { client: 'finance.read' } },
      schema: {
        tags: ['invoices'],
        summary: 'Start paying an issued invoice online (Paystack): answers the checkout page to send the client to',
        params: financeIdParamsSchema,
        response: { 200: payOnlineResponseSchema, 409: apiErrorSchema, 429: apiErrorSchema, 503: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const user = request.user!;
      await enforceRateLimit(app, reply, PAY_ONLINE_RATE_LIMIT, `user:${user._id}`, TRY_LATER);
      const { authorizationUrl } = await startCheckout(app, user, request.params.id, auditOf(request));
      return { success: true as const, authorizationUrl };
    },
  );

  // The webhook reads its body as raw bytes: the signature is over exactly what Paystack sent, so
  // JSON is parsed only after it is checked. A scope of its own, so no other route gets a Buffer.
  await app.register(async (hook) => {
    hook.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: PAYSTACK_WEBHOOK_MAX_BYTES }, (_request, body, done) => done(null, body));
    hook.post(
      '/paystack/webhook',
      {
        bodyLimit: PAYSTACK_WEBHOOK_MAX_BYTES,
        // Public: Paystack's servers call it, with no session and no Origin (so the same-origin check
        // of server/plugins/access.ts lets it through); the signature is the authentication.
        config: { access: 'public' },
        schema: {
          tags: ['invoices'],
          summary: "Paystack's events (signed with the secret key): a verified charge becomes a payment, once",
          consumes: ['application/json'],
          response: { 200: webhookResponseSchema, 429: apiErrorSchema, 503: apiErrorSchema, ...errors },
        },
      },
      async (request, reply) => {
        await enforceRateLimit(app, reply, PAYSTACK_WEBHOOK_RATE_LIMIT, visitorLimitKeyOf(request), TRY_LATER);
        if (!Buffer.isBuffer(request.body)) throw new AppError('BAD_REQUEST', 'The event must be JSON');
        const header = request.headers['x-paystack-signature'];
        const signature = typeof header === 'string' ? header : undefined;
        const { outcome, mailIds } = await handleWebhook(app, request.body, signature, clientAddressOf(app.config, request));
        request.log.info({ paystackOutcome: outcome }, 'paystack webhook');
        if (mailIds.length) later(deliverQueuedMail(app, mailIds), 'paystack mail failed');
        return { success: true as const };
      },
    );
  });
};

export default paystackRoutes;
