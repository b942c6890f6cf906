import pino from 'pino';
import { buildApp, type App } from './app.ts';
import { createDatabase } from './db/client.ts';
import { DataDirInUseError } from './db/embedded-postgres.ts';
import { configOrExit, openDatabase } from './start.ts';

/**
 * Runs a command-line task against the same database the server uses (DATABASE_URL, or the embedded
 * one under DATA_DIR) with the whole application built but not listening. The embedded database
 * can be opened by one process at a time: stop the server first, or use DATABASE_URL.
 */
export async function withApp<T>(task: (app: App) => Promise<T>): Promise<T> {
  const config = configOrExit();
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  let running;
  try {
    running = await openDatabase(config, log);
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      console.error(
        `The embedded database is in use by a running server (process ${err.ownerPid}).\n` +
          'Stop the server (Ctrl+C, or kill that process) and run this command again; or point both at one PostgreSQL with DATABASE_URL.',
      );
    } else {
      console.error(err instanceof Error ? err.message : err);
    }
    process.exit(1);
  }
  const database = createDatabase(running.url, { max: 2 });
  const app = await buildApp({ config, database, logger: log });
  try {
    await app.ready();
    return await task(app);
  } finally {
    await app.close();
    await database.close();
    await running.embedded?.stop();
  }
}
