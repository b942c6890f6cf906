import { pick, recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import type { Timeline, TimelineTask } from '../../../common/schemas/timelines.ts';
import { projects } from '../../db/schema/projects.ts';
import { ganttCharts } from '../../db/schema/timelines.ts';
import { publishChange } from '../../events/portal-events.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { findProjectForViewer, type Viewer } from '../projects/projects.service.ts';
import { projectScope } from '../projects/project-scope.ts';
import { refuseChangedApprovedMilestones } from '../approvals/approval-subjects.ts';

type TimelineRow = typeof ganttCharts.$inferSelect;

function toTimeline(row: TimelineRow): Timeline {
  return {
    _id: row.id,
    projectId: row.projectId,
    projectTitle: row.projectTitle,
    // Stored rows were validated on the way in; normalise anyway so `completed` always follows status.
    // A task saved before end months existed is one month long (decision 253).
    tasks: row.tasks.map((t) => ({
      task: t.task,
      month: t.month,
      endMonth: t.endMonth ?? t.month,
      status: t.status,
      completed: t.status === 'completed',
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The timeline records of a project the viewer may see, oldest first (the client view reads the first). */
export async function listProjectTimelines(app: FastifyInstance, viewer: Viewer, projectId: string): Promise<Timeline[]> {
  await findProjectForViewer(app, viewer, projectId);
  const rows = await app.db
    .select()
    .from(ganttCharts)
    .where(eq(ganttCharts.projectId, projectId))
    .orderBy(asc(ganttCharts.createdAt), asc(ganttCharts.id));
  return rows.map(toTimeline);
}

/** Adds a timeline record to a project and tells every viewer of the project. */
export async function createTimeline(
  app: FastifyInstance,
  viewer: Viewer,
  input: { projectId: string; projectTitle: string; tasks: TimelineTask[] },
  who: AuditContext,
): Promise<Timeline> {
  const project = await findProjectForViewer(app, viewer, input.projectId);
  const now = app.clock.now();
  const row = await app.db.transaction(async (tx) => {
    await lockWritableProject(tx, viewer, input.projectId);
    const [inserted] = await tx
      .insert(ganttCharts)
      .values({ projectId: input.projectId, projectTitle: input.projectTitle, tasks: input.tasks, createdAt: now, updatedAt: now })
      .returning();
    await publishChange(tx, { type: 'timeline.created', clientId: project.clientId._id, projectId: inserted.projectId, id: inserted.id });
    await recordAudit(tx, who, { action: 'timeline.create', entityId: inserted.id, projectId: inserted.projectId, after: { projectTitle: input.projectTitle, tasks: input.tasks } });
    return inserted;
  });
  return toTimeline(row);
}

/** Replaces a timeline record's title and tasks and tells every viewer of the project. */
export async function updateTimeline(
  app: FastifyInstance,
  viewer: Viewer,
  id: string,
  input: { projectTitle: string; tasks: TimelineTask[] },
  who: AuditContext,
): Promise<Timeline> {
  const row = await app.db.transaction(async (tx) => {
    const [current] = await tx
      .select({ projectId: ganttCharts.projectId, projectTitle: ganttCharts.projectTitle, tasks: ganttCharts.tasks })
      .from(ganttCharts)
      .innerJoin(projects, eq(projects.id, ganttCharts.projectId))
      .where(and(eq(ganttCharts.id, id), projectScope(viewer)))
      // Locked before the approval guard reads: a decision on one of its milestones holds FOR SHARE (decision 293).
      .for('update', { of: ganttCharts });
    if (!current) return undefined;
    await lockWritableProject(tx, viewer, current.projectId);
    await refuseChangedApprovedMilestones(tx, id, input.tasks);
    const [updated] = await tx
      .update(ganttCharts)
      .set({ projectTitle: input.projectTitle, tasks: input.tasks, updatedAt: app.clock.now() })
      .where(eq(ganttCharts.id, id))
      .returning();
    if (!updated) return undefined;
    const [owner] = await tx.select({ clientId: projects.clientId }).from(projects).where(eq(projects.id, updated.projectId));
    await publishChange(tx, { type: 'timeline.updated', clientId: owner.clientId, projectId: updated.projectId, id: updated.id });
    await recordAudit(tx, who, { action: 'timeline.update', entityId: id, projectId: updated.projectId, before: pick(current, input), after: input });
    return updated;
  });
  if (!row) throw notFound('Timeline not found');
  return toTimeline(row);
}
