import pg from 'pg';
import pino from 'pino';
import { buildApp, type App } from './app.ts';
import { createDatabase } from './db/client.ts';
import { DataDirInUseError, runningEmbeddedUrl } from './db/embedded-postgres.ts';
import type { AppConfig } from './config.ts';
import { configOrExit, openDatabase, type RunningDatabase } from './start.ts';

/**
 * Runs a command-line task against the same database the server uses (DATABASE_URL, or the embedded
 * one under DATA_DIR) with the whole application built but not listening. When a running server
 * holds the embedded database, the task connects to that server's PostgreSQL instead of starting
 * its own (decision 161), so `npm run admin:create` works while `npm start` runs.
 */
export async function withApp<T>(task: (app: App) => Promise<T>): Promise<T> {
  const config = configOrExit();
  const log = pino({ level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
  const running = await openDatabaseBesideServer(config, log);
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

/** Opens the database, or joins the embedded one a running server holds; exits with what to do otherwise. */
async function openDatabaseBesideServer(config: AppConfig, log: pino.Logger): Promise<RunningDatabase> {
  try {
    return await openDatabase(config, log);
  } catch (err) {
    if (!(err instanceof DataDirInUseError)) {
      console.error(err instanceof Error ? err.message : err);
      console.error('Nothing was changed. Check DATABASE_URL (or DATA_DIR for the embedded database) and run this command again.');
      process.exit(1);
    }
    const url = runningEmbeddedUrl(config.embeddedPgDir);
    if (!url) {
      console.error(
        `The server (process ${err.ownerPid}) holds the embedded database in ${err.dataDir} but its PostgreSQL is not running yet.\n` +
          'Wait until the server prints "Ready" and run this command again (or stop the server first).',
      );
      process.exit(1);
    }
    try {
      await waitForConnection(url);
    } catch (connectErr) {
      console.error(
        `Could not reach the embedded database of the running server (process ${err.ownerPid}): ${(connectErr as Error).message}\n` +
          'Wait until the server prints "Ready" and run this command again, or stop the server and run it alone.',
      );
      process.exit(1);
    }
    log.info(`Using the embedded database of the running server (process ${err.ownerPid})`);
    return { url };
  }
}

async function waitForConnection(url: string) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
