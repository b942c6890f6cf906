import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '../../../common/schemas/health.ts';
import { checkDatabase } from './health.service.ts';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Process and database status',
        response: { 200: healthResponseSchema, 503: healthResponseSchema },
      },
    },
    async (_request, reply) => {
      const database = await checkDatabase(app);
      const memory = process.memoryUsage();
      reply.header('Cache-Control', 'no-store');
      return reply.status(database.ok ? 200 : 503).send({
        success: true as const,
        status: database.ok ? ('ok' as const) : ('degraded' as const),
        uptimeSeconds: Math.round(process.uptime()),
        database,
        memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
        version: process.env.npm_package_version ?? '0.0.0',
      });
    },
  );
};

export default healthRoutes;
