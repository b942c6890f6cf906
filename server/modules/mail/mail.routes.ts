import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mailStatusResponseSchema } from '../../../common/schemas/mail.ts';
import { mailConfigured, outboxCounts } from '../../mail/mailer.ts';

/** GET /api/mail/status: whether mail can leave, for the admin dashboard's banner. */
const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/mail/status',
    {
      config: { access: { staff: 'settings.manage' } },
      schema: {
        tags: ['mail'],
        summary: 'Whether a mail transport (SMTP_URL) is configured, and how many mails wait or failed in the outbox',
        response: { 200: mailStatusResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const counts = await outboxCounts(app);
      return {
        success: true as const,
        configured: mailConfigured(app),
        waiting: (counts.stored ?? 0) + (counts.pending ?? 0),
        failed: counts.failed ?? 0,
      };
    },
  );
};

export default mailRoutes;
