import { and, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict } from '../../../common/errors.ts';
import { invoices, paymentMilestones } from '../../db/schema/payments.ts';
import { ganttCharts as timelines } from '../../db/schema/timelines.ts';
import { publishChange } from '../../events/portal-events.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { milestoneRowsOf } from './finance-read.ts';

// The payment plan of a project (issue 26, decision 298): its milestones, written as one list.

export interface PlanInput {
  milestones: Array<{ id?: string; name: string; amount?: string; share?: number; dueDate: string | null; dependsOn: Array<{ timelineId: string; task: string }> }>;
}

/**
 * Replaces a project's payment plan (staff): milestones keep their ids where given, new ones are
 * added, those left out are removed unless an invoice names them (409). The amounts need not add up
 * to the contract sum: the plan shows the difference (decision 298).
 */
export async function replacePlan(app: FastifyInstance, viewer: ScopeViewer, projectId: string, input: PlanInput, who: AuditContext): Promise<void> {
  await app.db.transaction(async (tx) => {
    const { clientId } = await lockWritableProject(tx, viewer, projectId);
    const existing = await milestoneRowsOf(tx, projectId);
    const known = new Set(existing.map((m) => m.id));
    for (const m of input.milestones) if (m.id && !known.has(m.id)) throw badRequest('A milestone of another plan was sent: reload the plan');
    const ids = input.milestones.map((m) => m.id).filter(Boolean);
    if (new Set(ids).size !== ids.length) throw badRequest('A milestone was sent twice');
    // A dependency the milestone already had stays, even when its timeline has since been deleted
    // (it shows as no longer on the timeline); only a new one must name a timeline of this project.
    const had = new Set(existing.flatMap((m) => m.dependsOn.map((d) => `${m.id} ${d.timelineId}`)));
    const timelineIds = [
      ...new Set(input.milestones.flatMap((m) => m.dependsOn.filter((d) => !(m.id && had.has(`${m.id} ${d.timelineId}`))).map((d) => d.timelineId))),
    ];
    if (timelineIds.length) {
      const found = await tx.select({ id: timelines.id }).from(timelines).where(and(eq(timelines.projectId, projectId), inArray(timelines.id, timelineIds)));
      if (found.length !== timelineIds.length) throw badRequest('A milestone depends on a timeline of another project');
    }
    const kept = new Set(ids);
    const removed = existing.filter((m) => !kept.has(m.id));
    if (removed.length) {
      const invoiced = await tx
        .select({ milestoneId: invoices.milestoneId })
        .from(invoices)
        .where(inArray(invoices.milestoneId, removed.map((m) => m.id)))
        .limit(1);
      if (invoiced.length) {
        const name = removed.find((m) => m.id === invoiced[0].milestoneId)?.name ?? '';
        throw conflict(`The milestone "${name}" has an invoice and stays in the plan`);
      }
      await tx.delete(paymentMilestones).where(inArray(paymentMilestones.id, removed.map((m) => m.id)));
    }
    const now = app.clock.now();
    // Positions move through negatives first, so a reorder never meets the (project, position) uniqueness half-way.
    if (ids.length) await tx.update(paymentMilestones).set({ position: sql`-1 - ${paymentMilestones.position}` }).where(inArray(paymentMilestones.id, ids as string[]));
    for (const [position, m] of input.milestones.entries()) {
      const values = {
        position,
        name: m.name,
        amountKobo: m.amount !== undefined ? BigInt(m.amount) : null,
        shareBp: m.share ?? null,
        dueDate: m.dueDate,
        dependsOn: m.dependsOn,
        updatedAt: now,
      };
      if (m.id) await tx.update(paymentMilestones).set(values).where(eq(paymentMilestones.id, m.id));
      else await tx.insert(paymentMilestones).values({ ...values, projectId, createdBy: who.actorId, createdAt: now });
    }
    await publishChange(tx, { type: 'finance.plan', clientId, projectId, id: projectId });
    await recordAudit(tx, who, {
      action: 'finance.plan',
      entityId: projectId,
      projectId,
      before: { milestones: existing.map((m) => ({ name: m.name, amount: m.amountKobo?.toString() ?? null, shareBp: m.shareBp, dueDate: m.dueDate })) },
      after: { milestones: input.milestones.map((m) => ({ name: m.name, amount: m.amount ?? null, shareBp: m.share ?? null, dueDate: m.dueDate })) },
    });
  });
}
