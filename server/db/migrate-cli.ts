// npm run db:migrate: applies the committed migrations to DATABASE_URL, or to the embedded database.
import pino from 'pino';
import { configOrExit, openDatabase } from '../start.ts';

const config = configOrExit();
const log = pino({ level: config.LOG_LEVEL });
try {
  const running = await openDatabase(config, log); // applies the migrations
  log.info('migrations applied');
  await running.embedded?.stop();
} catch (err) {
  log.fatal(err instanceof Error ? err.message : err);
  process.exit(1);
}
