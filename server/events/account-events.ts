import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { DbExecutor } from '../mail/mailer.ts';
import { notifySql } from './pg-events.ts';

// Decision 275: when an account is deactivated its sessions are revoked in the same transaction,
// which every process sees on the next request; an open live stream makes no request, so every
// process is also told to close the streams of that account.
const ACCOUNT_ENDED_CHANNEL = 'account_ended';
const accountEndedSchema = z.object({ userId: z.string() });

/** Tells every server process that the user's sessions ended; call it in the transaction that ended them. */
export async function publishAccountEnded(tx: DbExecutor, userId: string): Promise<void> {
  await tx.execute(notifySql(ACCOUNT_ENDED_CHANNEL, { userId }));
}

/** Calls `end` when any process ends this user's sessions; the answer stops listening. */
export function onAccountEnded(app: FastifyInstance, userId: string, end: () => void): () => void {
  return app.events.subscribe(ACCOUNT_ENDED_CHANNEL, (event) => {
    if (event.kind !== 'event') return;
    const parsed = accountEndedSchema.safeParse(event.payload);
    if (parsed.success && parsed.data.userId === userId) end();
  });
}
