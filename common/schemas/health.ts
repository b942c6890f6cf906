import { z } from 'zod';

export const healthResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['ok', 'degraded']),
  uptimeSeconds: z.number(),
  database: z.object({ ok: z.boolean(), latencyMs: z.number().optional(), error: z.string().optional() }),
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
