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

/** The key the readiness check looks up: it never exists, so a reachable storage answers "not there". */
const STORAGE_PROBE_KEY = 'health/readiness-probe';

/**
 * Asks the file storage about a key (a HEAD request on S3, a stat on disk) within the time limit: an
 * answer, even "no such file", means it is reachable; an error or silence means it is not.
 */
export async function checkStorage(app: FastifyInstance): Promise<{ ok: boolean; latencyMs?: number; error?: string }> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      app.storage.stat(STORAGE_PROBE_KEY),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), DATABASE_CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    app.log.warn({ err }, 'storage readiness check failed');
    return { ok: false, error: 'storage unreachable' };
  } finally {
    clearTimeout(timer);
  }
}
