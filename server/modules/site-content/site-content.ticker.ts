import type { FastifyInstance } from 'fastify';
import { publishDueSchedules } from './site-content.service.ts';

/** How often each process looks for schedules whose time has come. */
const SCHEDULE_TICK_MS = 15_000;

/**
 * Publishes due schedules every tick while the server runs (started by server/start.ts, on every
 * process: the claim in publishDueSchedules makes each schedule happen once). The timer does not
 * keep the process alive; the returned stop waits for a tick under way.
 */
export function startContentSchedules(app: FastifyInstance, intervalMs = SCHEDULE_TICK_MS): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = publishDueSchedules(app)
      .then((n) => void (n && app.log.info(`${n} scheduled content publish(es) done`)))
      .catch((err: unknown) => app.log.error({ err }, 'scheduled content publish failed'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
