import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../../../common/errors.ts';
import { NOT_A_PROJECT_MANAGER, type ProjectManager } from '../../../common/schemas/project-managers.ts';
import { projectAssignments, projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { publishChange } from '../../events/portal-events.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';

// Assigning project managers to projects (decision 277). Only owners and admins do it (the routes
// need projects.assign); what a project manager then sees is projectScope's to say.

const managerColumns = { _id: users.id, name: users.name, email: users.email };

/** Active staff with the project manager role: the only people a project can be assigned to. */
const isActiveManager = and(eq(users.role, 'admin'), eq(users.staffRole, 'project_manager'), isNull(users.archivedAt));

async function managersOf(db: DbExecutor, projectId: string): Promise<ProjectManager[]> {
  return db
    .select(managerColumns)
    .from(projectAssignments)
    .innerJoin(users, eq(users.id, projectAssignments.userId))
    .where(eq(projectAssignments.projectId, projectId))
    .orderBy(asc(users.name), asc(users.id));
}

/** A project's managers and every active project manager who could be chosen, by name. */
export async function listProjectManagers(app: FastifyInstance, projectId: string): Promise<{ managers: ProjectManager[]; candidates: ProjectManager[] }> {
  const [project] = await app.db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).limit(1);
  if (!project) throw notFound('Project not found');
  const [managers, candidates] = await Promise.all([
    managersOf(app.db, projectId),
    app.db.select(managerColumns).from(users).where(isActiveManager).orderBy(asc(users.name), asc(users.id)),
  ]);
  return { managers, candidates };
}

/**
 * Makes exactly these people the project's managers, in one transaction with its audit event. Every
 * id must be an active project manager (else 400 and nothing changes); their rows are share-locked
 * so a role changed at the same moment cannot slip in. The project's row is locked too, so two
 * owners saving at once apply one after the other. Everyone who may see the project hears of it
 * live; a newly assigned manager's screen reads its lists again on that event.
 */
export async function setProjectManagers(app: FastifyInstance, projectId: string, managerIds: readonly string[], who: AuditContext): Promise<ProjectManager[]> {
  return app.db.transaction(async (tx) => {
    const [project] = await tx.select({ clientId: projects.clientId }).from(projects).where(eq(projects.id, projectId)).for('update');
    if (!project) throw notFound('Project not found');
    const valid = managerIds.length === 0 ? [] : await tx.select({ id: users.id }).from(users).where(and(inArray(users.id, [...managerIds]), isActiveManager)).for('share');
    const refused = managerIds.filter((id) => !valid.some((v) => v.id === id));
    if (refused.length > 0) {
      throw new AppError('VALIDATION_FAILED', `body.managerIds: ${NOT_A_PROJECT_MANAGER}`, refused.map((id) => ({ field: 'body.managerIds', message: `${NOT_A_PROJECT_MANAGER} (${id})` })));
    }
    const before = (await managersOf(tx, projectId)).map((m) => m._id);
    const removed = before.filter((id) => !managerIds.includes(id));
    const added = managerIds.filter((id) => !before.includes(id));
    if (removed.length > 0) await tx.delete(projectAssignments).where(and(eq(projectAssignments.projectId, projectId), inArray(projectAssignments.userId, removed)));
    if (added.length > 0) await tx.insert(projectAssignments).values(added.map((userId) => ({ projectId, userId, createdAt: app.clock.now() })));
    if (removed.length + added.length > 0) {
      await publishChange(tx, { type: 'project.updated', clientId: project.clientId, projectId, id: projectId });
      await recordAudit(tx, who, { action: 'project.managers', entityId: projectId, projectId, before: { managerIds: [...before].sort() }, after: { managerIds: [...managerIds].sort() } });
    }
    return managersOf(tx, projectId);
  });
}
