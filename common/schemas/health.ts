import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';

/**
 * Anonymous callers (load balancers, uptime checks) get status and whether the database answers;
 * staff and callers with the metrics token also get the detail (decision 115).
 */
export const healthResponseSchema = okResponse({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), latencyMs: z.number().optional(), error: z.string().optional() }),
  uptimeSeconds: z.number().optional(),
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }).optional(),
  version: z.string().optional(),
});

const dependencySchema = z.object({ ok: z.boolean(), latencyMs: z.number().optional(), error: z.string().optional() });

/**
 * Readiness (GET /api/health/ready, decision 162): may this process take traffic? 200 when the
 * database and the file storage both answer, 503 otherwise. Latency and error only for staff and
 * the metrics token, as for /api/health.
 */
export const readinessResponseSchema = okResponse({
  status: z.enum(['ready', 'not-ready']),
  database: dependencySchema,
  storage: dependencySchema,
});
