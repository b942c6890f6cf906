import type { FastifyInstance } from 'fastify';

/**
 * Hands over work that goes on after the answer (a notification's delivery, a sweep, a password
 * reset request): a failure is logged as `failure` with `context`, never thrown to anyone. Work
 * given as a promise is already running; work given as a function starts only once the answer has
 * gone out, so its duration tells the caller nothing.
 */
export type AfterAnswer = (work: Promise<unknown> | (() => Promise<unknown>), failure: string, context?: Record<string, unknown>) => void;

// Keyed by the app's config object, which the root app and its encapsulated plugins share: one
// set per app, whichever route plugin started the work.
const inFlightByApp = new WeakMap<object, Set<Promise<unknown>>>();

function inFlightOf(app: FastifyInstance): Set<Promise<unknown>> {
  let set = inFlightByApp.get(app.config);
  if (!set) inFlightByApp.set(app.config, (set = new Set()));
  return set;
}

/**
 * The after-answer work of one route plugin: services are handed this to start their follow-ups,
 * and closing the app waits for those still in flight.
 */
export function afterAnswer(app: FastifyInstance): AfterAnswer {
  const inFlight = inFlightOf(app);
  app.addHook('onClose', async () => settleAfterAnswer(app));
  return (work, failure, context) => {
    const running = typeof work === 'function' ? new Promise<void>((resolve) => setImmediate(resolve)).then(work) : work;
    const p: Promise<unknown> = running.catch((err: unknown) => app.log.error({ err, ...context }, failure)).finally(() => inFlight.delete(p));
    inFlight.add(p);
  };
}

/** Waits until the after-answer work started so far (and any it started in turn) has finished. */
export async function settleAfterAnswer(app: FastifyInstance): Promise<void> {
  const set = inFlightByApp.get(app.config);
  while (set && set.size) await Promise.all([...set]);
}
