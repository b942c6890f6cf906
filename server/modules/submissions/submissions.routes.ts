import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { submissionCountsResponseSchema } from '../../../common/schemas/submissions.ts';
import { countUnreadContactMessages } from '../contact/contact.service.ts';
import { countNewsletterSubscribers } from '../newsletter/newsletter.service.ts';
import { countNewVendorApplications } from '../vendors/vendors.service.ts';

/** GET /api/submissions/counts: what visitors sent that staff have not looked at (admin dashboard). */
const submissionsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/submissions/counts',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: {
        tags: ['submissions'],
        summary: 'New vendor applications, unread contact messages and newsletter subscribers',
        response: { 200: submissionCountsResponseSchema },
      },
    },
    async () => {
      const [newApplications, unreadMessages, subscribers] = await Promise.all([
        countNewVendorApplications(app),
        countUnreadContactMessages(app),
        countNewsletterSubscribers(app),
      ]);
      return {
        success: true as const,
        newApplications,
        unreadMessages,
        pendingSubscribers: subscribers.pending,
        subscribers: subscribers.subscribed,
      };
    },
  );
};

export default submissionsRoutes;
