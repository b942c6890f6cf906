import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { formTokenResponseSchema } from '../../common/schemas/forms.ts';
import { issueFormToken } from '../lib/form-guard.ts';

/**
 * GET /api/form-token: the public forms fetch it when they are shown (their pages are pre-rendered,
 * so the token cannot be baked into the HTML) and send it back with the submission.
 */
const formTokenRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/form-token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['forms'],
        summary: 'A signed token recording when a public form was shown (bot protection)',
        response: { 200: formTokenResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, token: await issueFormToken(app) };
    },
  );
};

export default formTokenRoutes;
