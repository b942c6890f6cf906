import type { FastifyInstance } from 'fastify';

/**
 * Runs `tick` every `intervalMs` while the server runs, on every process (the work itself claims
 * what it does, so each piece happens once). A tick never overlaps the one before; the timer does
 * not keep the process alive; the returned stop waits for a tick under way.
 */
export function startTicker(app: FastifyInstance, name: string, intervalMs: number, tick: () => Promise<number>): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = tick()
      .then((n) => void (n && app.log.info(`${name}: ${n} done`)))
      .catch((err: unknown) => app.log.error({ err }, `${name} failed`))
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
