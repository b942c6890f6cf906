import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { serverSecrets } from '../db/schema/form-guard.ts';

const cache = new WeakMap<FastifyInstance, Map<string, Promise<Buffer>>>();

/**
 * A secret key the server makes for itself the first time it is needed and keeps in the database,
 * so every process (and every restart) signs and checks with the same key.
 */
export function serverSecret(app: FastifyInstance, name: string): Promise<Buffer> {
  let byName = cache.get(app);
  if (!byName) cache.set(app, (byName = new Map()));
  let secret = byName.get(name);
  if (!secret) {
    secret = (async () => {
      await app.db
        .insert(serverSecrets)
        .values({ name, value: randomBytes(32).toString('base64') })
        .onConflictDoNothing();
      const [row] = await app.db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
      return Buffer.from(row.value, 'base64');
    })();
    // A failed read (database down) is tried again next time rather than cached.
    secret.catch(() => byName!.delete(name));
    byName.set(name, secret);
  }
  return secret;
}
