// The start of the product, kept light (decision 301): the configuration, the logger and the embedded
// PostgreSQL's launcher load first, PostgreSQL starts in its own process, and the application's
// modules (server/start-app.ts: Fastify, the routes, the web pages) load while it boots.
import '../common/zod-setup.ts';
import type pino from 'pino';
import { loadConfig, ConfigError, type AppConfig } from './config.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './db/embedded-postgres.ts';
import { createLogger } from './logging.ts';
import type * as StartApp from './start-app.ts';

export interface RunningDatabase {
  url: string;
  embedded?: EmbeddedPostgresHandle;
}

/**
 * Uses DATABASE_URL when set; otherwise starts the embedded PostgreSQL. Then applies migrations.
 * `whileStarting` is called once the database is on its way (its process spawned), for work that
 * can overlap with its start.
 */
export async function openDatabase(config: AppConfig, log: pino.Logger, whileStarting?: () => void): Promise<RunningDatabase> {
  let result: RunningDatabase;
  if (config.DATABASE_URL) {
    whileStarting?.();
    result = { url: config.DATABASE_URL };
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: config.embeddedPgDir, port: config.EMBEDDED_PG_PORT, log, onSpawned: whileStarting });
    result = { url: embedded.url, embedded };
  }
  try {
    // Drizzle's migrator is loaded here, after PostgreSQL's process is on its way.
    const { runMigrations } = await import('./db/migrate.ts');
    await runMigrations(result.url);
  } catch (err) {
    await result.embedded?.stop();
    throw err;
  }
  return result;
}

/** Reads the configuration or exits with one line per bad field. */
export function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

export interface StartOptions {
  /** Where the web pages come from: the build (`npm start`) or Vite's dev server (`npm run dev`). */
  web?: 'build' | 'vite';
}

/** Starts the whole product: database, migrations, API and web pages; stops it on SIGTERM/SIGINT. */
export async function startServer(options: StartOptions = {}) {
  const config = configOrExit();
  const log = createLogger(config);
  // The application's modules load while PostgreSQL starts (one second of CPU here, PostgreSQL's own
  // start in its process); asked for once its process is spawned, so its launch does not wait on them.
  let appModule: Promise<typeof StartApp> | undefined;
  const loadApp = () => {
    appModule ??= import('./start-app.ts');
    // Awaited below; a failure meanwhile is not an unhandled rejection.
    appModule.catch(() => undefined);
  };
  let running: RunningDatabase;
  try {
    running = await openDatabase(config, log, loadApp);
  } catch (err) {
    log.fatal(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  loadApp();
  let runApp: typeof StartApp.runApp;
  try {
    ({ runApp } = await appModule!);
  } catch (err) {
    log.fatal({ err }, 'start-up failed');
    await running.embedded?.stop();
    process.exit(1);
  }
  return runApp(config, log, running, options);
}
