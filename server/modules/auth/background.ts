import type { FastifyInstance } from 'fastify';

// Keyed by the app's config object, which the root app and its encapsulated plugins share.
const pending = new WeakMap<object, Set<Promise<void>>>();

/**
 * Runs work after the answer has gone out (so its duration tells the caller nothing); failures are
 * logged. The app waits for it on close, and tests can wait with settleBackgroundWork.
 */
export function runInBackground(app: FastifyInstance, what: string, work: () => Promise<void>): void {
  let set = pending.get(app.config);
  if (!set) pending.set(app.config, (set = new Set()));
  const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(work)
    .catch((err) => app.log.error({ err }, `${what} failed`))
    .finally(() => set.delete(task));
  set.add(task);
}

/** Waits until the background work started so far has finished. */
export async function settleBackgroundWork(app: FastifyInstance): Promise<void> {
  const set = pending.get(app.config);
  while (set && set.size) await Promise.all([...set]);
}
