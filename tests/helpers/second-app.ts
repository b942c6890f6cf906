import { Writable } from 'node:stream';
import pino from 'pino';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createDatabase } from '../../server/db/client.ts';
import type { TestApp } from './test-app.ts';

/**
 * Another process on the same database and clock as `t`, started with its own environment (another
 * key, another NODE_ENV), admin MFA on and its log kept: what a second server or the next deploy sees.
 */
export async function appOnSameDatabase(t: TestApp, env: Record<string, string>) {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) }));
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: t.databaseUrl, UPLOADS_DIR: t.uploadsDir, ADMIN_MFA_REQUIRED: 'true', ...env });
  const database = createDatabase(t.databaseUrl, { max: 2 });
  const app = await buildApp({ config, database, logger, clock: t.clock });
  await app.ready();
  return {
    app,
    lines,
    /** The whole log so far. */
    text: () => lines.join(''),
    /** The log's lines, parsed. */
    messages: () => lines.map((l) => JSON.parse(l) as { level: number; msg: string }),
    async close() {
      await app.close();
      await database.close();
    },
  };
}
