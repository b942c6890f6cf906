import { and, eq, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, todayIso } from '../../../common/dates.ts';
import { invoiceReminders, invoices } from '../../db/schema/payments.ts';
import { projects } from '../../db/schema/projects.ts';
import { deliverQueuedMail, queueMail } from '../../mail/mailer.ts';
import { startTicker } from '../../lib/ticker.ts';
import { financePeopleOf, reminderMail, type ReminderKind } from './finance-mail.ts';
import { invoiceBalance } from './finance-read.ts';

/** How often each process looks for invoice reminders to send. */
const REMINDER_TICK_MS = 15 * 60_000;
/** A reminder goes this many days before the due date (and once the day after it, when still unpaid). */
const INVOICE_REMINDER_DAYS_BEFORE = 3;

/**
 * Sends the invoice reminders that are due (issue 26): 'due_soon' for an issued invoice still owing
 * whose due date is within three days, 'overdue' for one past its due date; each once per invoice,
 * to the client's people who see invoices, never for an archived project. Any number of processes may
 * run it at once: invoices are taken FOR UPDATE SKIP LOCKED, and the reminder row (unique invoice and
 * kind) is the claim. Answers the number of mails queued.
 */
export async function sendInvoiceReminders(app: FastifyInstance): Promise<number> {
  const now = app.clock.now();
  const today = todayIso(now);
  const mailIds = await app.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: invoices.id, dueDate: invoices.dueDate })
      .from(invoices)
      .innerJoin(projects, eq(projects.id, invoices.projectId))
      .where(
        and(
          eq(invoices.status, 'issued'),
          isNull(projects.archivedAt),
          or(lt(invoices.dueDate, today), and(gte(invoices.dueDate, today), lte(invoices.dueDate, addDays(today, INVOICE_REMINDER_DAYS_BEFORE)))),
          sql`not exists (select 1 from ${invoiceReminders} r where r.invoice_id = ${invoices.id} and r.kind = case when ${invoices.dueDate} < ${today} then 'overdue' else 'due_soon' end)`,
        ),
      )
      .for('update', { of: invoices, skipLocked: true });
    const ids: string[] = [];
    for (const row of due) {
      const kind: ReminderKind = row.dueDate! < today ? 'overdue' : 'due_soon';
      const balance = (await invoiceBalance(tx, row.id, today))!;
      if (balance.outstandingKobo === 0n) continue;
      const [claimed] = await tx.insert(invoiceReminders).values({ invoiceId: row.id, kind, sentOn: today, createdAt: now }).onConflictDoNothing().returning({ kind: invoiceReminders.kind });
      if (!claimed) continue;
      for (const person of await financePeopleOf(tx, balance.row.projectId)) {
        const facts = {
          projectId: balance.row.projectId,
          projectName: balance.projectName,
          invoiceId: row.id,
          number: balance.row.number!,
          grossKobo: balance.row.grossKobo,
          dueDate: row.dueDate!,
          outstandingKobo: balance.outstandingKobo,
          kind,
        };
        ids.push(await queueMail(tx, app, reminderMail(app, person, facts)));
      }
    }
    return ids;
  });
  if (mailIds.length) await deliverQueuedMail(app, mailIds).catch((err: unknown) => app.log.error({ err }, 'invoice reminder delivery failed (retried later)'));
  return mailIds.length;
}

/** Starts the invoice reminder ticker on this process (server/start.ts). */
export function startInvoiceReminders(app: FastifyInstance, intervalMs = REMINDER_TICK_MS): () => Promise<void> {
  return startTicker(app, 'invoice reminders', intervalMs, () => sendInvoiceReminders(app));
}
