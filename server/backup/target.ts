import pino from 'pino';
import type { AppConfig } from '../config.ts';
import { DataDirInUseError, embeddedDatabaseUrl, startEmbeddedPostgres } from '../db/embedded-postgres.ts';

/**
 * The database a backup reads or a restore writes: DATABASE_URL, or the embedded one. A backup may
 * read the embedded database of a running server (it is a read-only snapshot); a restore refuses
 * while a server runs on it.
 */
export async function openForBackup(config: AppConfig, options: { running: 'share' | 'refuse' }): Promise<{ url: string; close(): Promise<void> }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, close: async () => undefined };
  const log = pino({ level: 'warn' });
  try {
    const embedded = await startEmbeddedPostgres({ dataDir: config.embeddedPgDir, port: config.EMBEDDED_PG_PORT, log });
    return { url: embedded.url, close: () => embedded.stop() };
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      if (options.running === 'share') return { url: embeddedDatabaseUrl(config.EMBEDDED_PG_PORT), close: async () => undefined };
      console.error(`A server (process ${err.ownerPid}) is running on the embedded database in ${err.dataDir}. Stop it, then restore.`);
      process.exit(1);
    }
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
