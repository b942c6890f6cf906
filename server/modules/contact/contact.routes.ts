import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../../common/errors.ts';
import {
  CONTACT_INBOX_PAGE_SIZE,
  CONTACT_MESSAGES,
  contactInboxQuerySchema,
  contactInboxResponseSchema,
  contactMessageFieldsSchema,
  contactMessageResponseSchema,
  contactReadUpdateSchema,
  contactSubmitResponseSchema,
} from '../../../common/schemas/contact.ts';
import { formGuardFieldsSchema } from '../../../common/schemas/forms.ts';
import { checkFormGuard, enforceFormRateLimit } from '../../lib/form-guard.ts';
import { createContactMessage, listContactMessages, setContactMessageRead } from './contact.service.ts';
import { visitorAddressOf } from '../auth/admin-network.ts';

// The longest message (5,000 characters of up to 4 bytes) and the other fields fit well inside this.
const CONTACT_BODY_LIMIT_BYTES = 32 * 1024;

const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/contact',
    {
      config: { access: 'public' },
      bodyLimit: CONTACT_BODY_LIMIT_BYTES,
      schema: {
        tags: ['contact'],
        summary: 'Send a message to the company (stored for staff, who are notified by e-mail)',
        body: contactMessageFieldsSchema.extend(formGuardFieldsSchema.shape),
        response: { 200: contactSubmitResponseSchema },
      },
    },
    async (request, reply) => {
      await enforceFormRateLimit(app, request, reply, 'contact');
      const { formToken, homepageUrl, ...fields } = request.body;
      if ((await checkFormGuard(app, 'contact', { formToken, homepageUrl })) === 'accept') {
        await createContactMessage(app, fields, visitorAddressOf(request));
      } else {
        request.log.info('contact message dropped by the bot guard');
      }
      return { success: true as const, message: CONTACT_MESSAGES.sentDescription };
    },
  );

  app.get(
    '/contact/messages',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: {
        tags: ['contact'],
        summary: "Staff's inbox of contact messages, newest first",
        querystring: contactInboxQuerySchema,
        response: { 200: contactInboxResponseSchema },
      },
    },
    async (request) => {
      const result = await listContactMessages(app, request.query);
      return { success: true as const, ...result, page: request.query.page, pageSize: CONTACT_INBOX_PAGE_SIZE };
    },
  );

  app.put(
    '/contact/messages/:id/read',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: {
        tags: ['contact'],
        summary: 'Mark a contact message read or unread',
        params: z.object({ id: z.uuid() }),
        body: contactReadUpdateSchema,
        response: { 200: contactMessageResponseSchema },
      },
    },
    async (request) => {
      const message = await setContactMessageRead(app, request.params.id, request.body.isRead);
      if (!message) throw notFound('Message not found');
      return { success: true as const, message };
    },
  );
};

export default contactRoutes;
