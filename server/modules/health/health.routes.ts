import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Access } from '../../plugins/access.ts';
import { healthResponseSchema, readinessResponseSchema } from '../../../common/schemas/health.ts';
import { checkDatabase, checkStorage } from './health.service.ts';

/** Staff, or a monitor sending `X-Metrics-Token: <METRICS_TOKEN>`, may see the process detail. */
function maySeeDetail(request: FastifyRequest): boolean {
  if (request.user?.role === 'admin') return true;
  const token = request.server.config.METRICS_TOKEN;
  const given = request.headers['x-metrics-token'];
  if (!token || typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A probe's route options: the same answer shape whether it is well (200) or not (503). */
function probe<S extends z.ZodType>(access: Access, summary: string, answer: S) {
  return { config: { access }, schema: { tags: ['system'], summary, response: { 200: answer, 503: answer } } };
}

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    probe('public', 'Process and database status', healthResponseSchema),
    async (request, reply) => {
      const database = await checkDatabase(app);
      reply.header('Cache-Control', 'no-store');
      const status = database.ok ? ('ok' as const) : ('degraded' as const);
      if (!maySeeDetail(request)) {
        return reply.status(database.ok ? 200 : 503).send({ success: true as const, status, database: { ok: database.ok } });
      }
      const memory = process.memoryUsage();
      return reply.status(database.ok ? 200 : 503).send({
        success: true as const,
        status,
        uptimeSeconds: Math.round(process.uptime()),
        database,
        memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed },
        version: process.env.npm_package_version ?? '0.0.0',
      });
    },
  );

  // Readiness (decision 162): /api/health says the process lives; this says it can serve.
  app.get(
    '/health/ready',
    probe('public', 'Whether this process can serve: database and file storage reachable (503 when not)', readinessResponseSchema),
    async (request, reply) => {
      const [database, storage] = await Promise.all([checkDatabase(app), checkStorage(app)]);
      const ready = database.ok && storage.ok;
      reply.header('Cache-Control', 'no-store');
      const detail = maySeeDetail(request);
      const shown = (d: typeof database) => (detail ? d : { ok: d.ok });
      return reply
        .status(ready ? 200 : 503)
        .send({ success: true as const, status: ready ? ('ready' as const) : ('not-ready' as const), database: shown(database), storage: shown(storage) });
    },
  );
};

export default healthRoutes;
