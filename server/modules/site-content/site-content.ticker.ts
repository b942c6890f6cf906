import type { FastifyInstance } from 'fastify';
import { startTicker } from '../../lib/ticker.ts';
import { publishDueSchedules } from './site-content.service.ts';

/** How often each process looks for schedules whose time has come. */
const SCHEDULE_TICK_MS = 15_000;

/**
 * Publishes due schedules every tick while the server runs (started by server/start.ts, on every
 * process: the claim in publishDueSchedules makes each schedule happen once); the shared ticker of
 * the approval reminders. The returned stop waits for a tick under way.
 */
export function startContentSchedules(app: FastifyInstance, intervalMs = SCHEDULE_TICK_MS): () => Promise<void> {
  return startTicker(app, 'scheduled content publish', intervalMs, () => publishDueSchedules(app));
}
