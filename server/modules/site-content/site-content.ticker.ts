import type { FastifyInstance } from 'fastify';
import { startTicker } from '../../lib/ticker.ts';
import { publishDueSchedules } from './site-content.service.ts';

/**
 * Publishes due schedules every tick while the server runs (started by server/start.ts, on every
 * process: the claim in publishDueSchedules makes each schedule happen once); the shared ticker of
 * the approval reminders. Every `intervalMs` (CONTENT_SCHEDULE_TICK_MS, 15 s unless set); the
 * returned stop waits for a tick under way.
 */
export function startContentSchedules(app: FastifyInstance, intervalMs: number): () => Promise<void> {
  return startTicker(app, 'scheduled content publish', intervalMs, () => publishDueSchedules(app));
}
