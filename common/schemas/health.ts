import { z } from 'zod';

/**
 * Anonymous callers (load balancers, uptime checks) get status and whether the database answers;
 * staff and callers with the metrics token also get the detail (decision 115).
 */
export const healthResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), latencyMs: z.number().optional(), error: z.string().optional() }),
  uptimeSeconds: z.number().optional(),
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }).optional(),
  version: z.string().optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
