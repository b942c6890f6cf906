import type pino from 'pino';
import { buildApp } from './app.ts';
import type { AppConfig } from './config.ts';
import { createDatabase, type Database } from './db/client.ts';
import { seedFirstStart } from './db/seed.ts';
import { startMailRetries } from './mail/mailer.ts';
import { startRetention } from './lib/retention.ts';
import { startContentSchedules } from './modules/site-content/site-content.ticker.ts';
import { startApprovalReminders } from './modules/approvals/approval-reminders.ts';
import { startInvoiceReminders } from './modules/invoices/invoice-reminders.ts';
import { announceSetupLink } from './modules/setup/setup.service.ts';
import type { RunningDatabase, StartOptions } from './start.ts';

/** While no admin exists, prints the one-time set-up link (decision 160); a failure here never stops the server. */
async function announceFirstRun(app: Awaited<ReturnType<typeof buildApp>>) {
  try {
    await announceSetupLink(app);
  } catch (err) {
    app.log.error({ err }, 'could not write the first-run set-up link; run "npm run admin:create" instead');
  }
}

/** How long a stop may take before the process exits anyway (status 1). */
const STOP_TIMEOUT_MS = 20_000;

/**
 * The product on an open database: API and web pages, the background schedules, listening; stops it
 * on SIGTERM/SIGINT. server/start.ts loads this module while the database starts (decision 301).
 */
export async function runApp(config: AppConfig, log: pino.Logger, running: RunningDatabase, options: StartOptions = {}) {
  let database: Database | undefined;
  try {
    database = createDatabase(running.url, { max: config.DB_POOL_MAX });
    const web = config.SERVE_WEB && (options.web === 'vite' ? 'vite' : true);
    const app = await buildApp({ config, database, logger: log, web });
    if (!config.ADMIN_ALLOWED_CIDRS.length) {
      log.warn('ADMIN_ALLOWED_CIDRS is empty: the admin area accepts sign-ins from any address');
    }
    // Development only: the sample posts on an empty database's first start (decision 205).
    // Sample data is a convenience: its failure is logged and the server starts anyway.
    const samples = await seedFirstStart(app).catch((err: unknown) => (log.error({ err }, 'could not add the sample blog posts'), 0));
    if (samples) log.info(`first start on an empty database: ${samples} sample blog posts added (development only)`);
    // Mails whose delivery failed are sent again from here (see server/mail/mailer.ts).
    const stopMailRetries = startMailRetries(app);
    // Records that only grow (audit, outbox, sessions, counters) are pruned hourly (server/lib/retention.ts).
    const stopRetention = startRetention(app);
    // Scheduled website publishes, on every process; each is claimed once (decision 283).
    const stopContentSchedules = startContentSchedules(app, config.CONTENT_SCHEDULE_TICK_MS);
    // Approval reminders, on every process; each person's day is claimed once (decision 293).
    const stopApprovalReminders = startApprovalReminders(app);
    // Invoice reminders, on every process; each invoice's reminder is claimed once (issue 26).
    const stopInvoiceReminders = startInvoiceReminders(app);
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      const mailRetriesStopped = stopMailRetries();
      stopRetention();
      const contentSchedulesStopped = stopContentSchedules();
      const approvalRemindersStopped = stopApprovalReminders();
      const invoiceRemindersStopped = stopInvoiceReminders();
      log.info(`${signal} received: finishing requests in flight, then stopping`);
      // Each step is named, so a stop that hangs or fails says where; a failed step does not keep
      // the next ones (the database above all) from closing.
      let step = 'finishing the mail retry round';
      let failed = false;
      const force = setTimeout(() => {
        log.error(`still ${step} ${STOP_TIMEOUT_MS / 1000} s after ${signal}: exiting without finishing`);
        process.exit(1);
      }, STOP_TIMEOUT_MS);
      force.unref();
      // A library that errs while it closes (a watcher, a socket) must not end the process before
      // the database has stopped: during the stop such errors are logged, and the stop goes on.
      const duringStop = (err: unknown) => log.warn({ err }, `error while ${step} (the stop goes on)`);
      process.on('uncaughtException', duringStop);
      process.on('unhandledRejection', duringStop);
      const run = async (name: string, work: () => Promise<unknown>) => {
        step = name;
        try {
          await work();
        } catch (err) {
          failed = true;
          log.error({ err }, `${name} failed`);
        }
      };
      // A retry round under way ends after the mails it is sending, before the database closes.
      await run(step, () => mailRetriesStopped);
      await run('finishing a scheduled content publish', () => contentSchedulesStopped);
      await run('finishing approval reminders', () => approvalRemindersStopped);
      await run('finishing invoice reminders', () => invoiceRemindersStopped);
      await run('closing the server', () => app.close());
      await run('closing the database pool', async () => database?.close());
      await run('stopping the embedded database', async () => running.embedded?.stop());
      log.info(failed ? 'stopped, after the errors above' : 'stopped');
      process.exit(failed ? 1 : 0);
    };
    process.on('SIGTERM', () => void stop('SIGTERM'));
    process.on('SIGINT', () => void stop('SIGINT'));
    await app.listen({ host: config.HOST, port: config.PORT });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    log.info(`Ready: http://localhost:${port} (API health at /api/health, API docs at /api/docs)`);
    await announceFirstRun(app);
    return app;
  } catch (err) {
    log.fatal({ err }, 'start-up failed');
    await database?.close();
    await running.embedded?.stop();
    process.exit(1);
  }
}
