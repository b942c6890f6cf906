import type { FastifyInstance } from 'fastify';

/**
 * Hands over work that goes on after the answer (a notification's delivery, a sweep): it is already
 * running; a failure is logged as `failure` with `context`, never thrown to anyone.
 */
export type AfterAnswer = (work: Promise<unknown>, failure: string, context?: Record<string, unknown>) => void;

/**
 * The after-answer work of one route plugin: services are handed this to start their follow-ups,
 * and closing the app waits for those still in flight.
 */
export function afterAnswer(app: FastifyInstance): AfterAnswer {
  const inFlight = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...inFlight]);
  });
  return (work, failure, context) => {
    const p = work.catch((err: unknown) => app.log.error({ err, ...context }, failure)).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
}
