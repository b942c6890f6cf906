import type { FastifyInstance } from 'fastify';

const DATABASE_CHECK_TIMEOUT_MS = 2000;

/** Round-trips a trivial query; a slow or failed database reports not ok instead of hanging. */
export async function checkDatabase(app: FastifyInstance): Promise<{ ok: boolean; latencyMs?: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      app.pool.query('SELECT 1'),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), DATABASE_CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    app.log.warn({ err }, 'database health check failed');
    return { ok: false, error: 'database unreachable' };
  } finally {
    clearTimeout(timer);
  }
}
