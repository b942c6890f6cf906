import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import { searchQuerySchema, searchResponseSchema } from '../../../common/schemas/search.ts';
import { search } from './search.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

// Two routes rather than one that branches on the role: a client's search can never widen to staff's.
const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/search',
    {
      config: { access: { staff: 'projects.read' } },
      schema: {
        tags: ['search'],
        summary: 'Staff search: clients, projects, reports, messages, vendor applications and contact messages, grouped by kind',
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, query: request.query.q, groups: await search(app, request.user!, request.query) };
    },
  );

  app.get(
    '/search/mine',
    {
      config: { access: 'client' },
      schema: {
        tags: ['search'],
        summary: "A client's search over its own projects, their reports and messages",
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, query: request.query.q, groups: await search(app, request.user!, request.query) };
    },
  );
};

export default searchRoutes;
