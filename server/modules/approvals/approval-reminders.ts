import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, todayIso } from '../../../common/dates.ts';
import { approvalReminders, approvalRequests } from '../../db/schema/approvals.ts';
import { projects } from '../../db/schema/projects.ts';
import { deliverQueuedMail, queueMail } from '../../mail/mailer.ts';
import { startTicker } from '../../lib/ticker.ts';
import { approvalReminderMail, approversOf, type Approver } from './approval-mail.ts';

/** How often each process looks for reminders to send. */
const REMINDER_TICK_MS = 5 * 60_000;
/** Reminders go this many days before the due day, and on the day. */
const REMINDER_DAYS_BEFORE = 2;

/**
 * Sends the day's approval reminders (decision 293): for every request still waiting whose due day
 * is today or two days ahead (Lagos days), each of the client's approvers gets one mail naming all
 * of theirs, at most one a day per person. Any number of processes may run it at once: the due
 * requests are taken FOR UPDATE SKIP LOCKED (one process works on each), and the person's day row
 * (unique user and day) is the claim. Answers the number of mails queued (delivered after commit).
 */
export async function sendApprovalReminders(app: FastifyInstance): Promise<number> {
  const now = app.clock.now();
  const today = todayIso(now);
  const dueDays = [today, addDays(today, REMINDER_DAYS_BEFORE)];
  const dueOpen = and(eq(approvalRequests.status, 'pending'), inArray(approvalRequests.dueOn, dueDays), isNull(projects.archivedAt));
  const mailIds = await app.db.transaction(async (tx) => {
    const mine = await tx
      .select({ projectId: approvalRequests.projectId })
      .from(approvalRequests)
      .innerJoin(projects, eq(projects.id, approvalRequests.projectId))
      .where(dueOpen)
      .for('update', { of: approvalRequests, skipLocked: true });
    if (mine.length === 0) return [];
    // The mail names all of a person's due requests, also those another process holds.
    const due = await tx
      .select({ id: approvalRequests.id, projectId: approvalRequests.projectId, projectName: projects.name, title: approvalRequests.subjectTitle, dueOn: approvalRequests.dueOn })
      .from(approvalRequests)
      .innerJoin(projects, eq(projects.id, approvalRequests.projectId))
      .where(dueOpen)
      .orderBy(approvalRequests.dueOn, approvalRequests.requestedAt);
    const people = new Map<string, { person: Approver; items: typeof due; mine: boolean }>();
    const myProjects = new Set(mine.map((m) => m.projectId));
    for (const projectId of new Set(due.map((d) => d.projectId))) {
      for (const person of await approversOf(tx, projectId)) {
        const entry = people.get(person.id) ?? { person, items: [], mine: false };
        entry.items.push(...due.filter((d) => d.projectId === projectId));
        entry.mine ||= myProjects.has(projectId);
        people.set(person.id, entry);
      }
    }
    const ids: string[] = [];
    for (const { person, items, mine: isMine } of people.values()) {
      if (!isMine) continue;
      const [claimed] = await tx
        .insert(approvalReminders)
        .values({ userId: person.id, sentOn: today, requestIds: items.map((i) => i.id), createdAt: now })
        .onConflictDoNothing()
        .returning({ userId: approvalReminders.userId });
      if (claimed) ids.push(await queueMail(tx, app, approvalReminderMail(app, person, items, today)));
    }
    return ids;
  });
  if (mailIds.length) await deliverQueuedMail(app, mailIds).catch((err: unknown) => app.log.error({ err }, 'approval reminder delivery failed (retried later)'));
  return mailIds.length;
}

/** Reminders older than this are pruned by the ticker (the claim matters only for its day). */
const REMINDER_KEEP_DAYS = 30;

/** Starts the reminder ticker on this process (server/start.ts); see sendApprovalReminders. */
export function startApprovalReminders(app: FastifyInstance, intervalMs = REMINDER_TICK_MS): () => Promise<void> {
  return startTicker(app, 'approval reminders', intervalMs, async () => {
    const sent = await sendApprovalReminders(app);
    await app.db.delete(approvalReminders).where(sql`${approvalReminders.sentOn} < ${addDays(todayIso(app.clock.now()), -REMINDER_KEEP_DAYS)}`);
    return sent;
  });
}
