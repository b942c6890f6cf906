import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../../../common/errors.ts';
import { refuseDeleteWhenInvoiced } from '../invoices/finance-read.ts';
import type { DeleteOutcome } from '../../../common/schemas/archive.ts';
import type { Project } from '../../../common/schemas/projects.ts';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import { changeOrderAttachments, changeOrders } from '../../db/schema/change-orders.ts';
import { messageFiles, messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports, reportImages } from '../../db/schema/reports.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { publishChange } from '../../events/portal-events.ts';
import { removeStoredFiles } from '../files/stored-files.ts';
import { findProjectForViewer, type Viewer } from './projects.service.ts';
import { projectScope } from './project-scope.ts';

// Archive, restore and delete of projects (issue 22, decisions 247 and 249); the read-only rule of
// archived ones is in project-locks.ts.

/** Archives (`archived` true) or restores a project; archiving an archived one changes nothing. */
export async function setProjectArchived(app: FastifyInstance, viewer: Viewer, projectId: string, archived: boolean, who: AuditContext): Promise<Project> {
  await app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ clientId: projects.clientId, archivedAt: projects.archivedAt })
      .from(projects)
      .where(and(eq(projects.id, projectId), projectScope(viewer)))
      .for('update');
    if (!row) throw notFound('Project not found');
    if (Boolean(row.archivedAt) === archived) return;
    await tx
      .update(projects)
      .set({ archivedAt: archived ? app.clock.now() : null, updatedAt: app.clock.now() })
      .where(eq(projects.id, projectId));
    await publishChange(tx, { type: 'project.status', clientId: row.clientId, projectId, id: projectId });
    await recordAudit(tx, who, { action: archived ? 'project.archive' : 'project.restore', entityId: projectId, projectId, before: { archived: !archived }, after: { archived } });
  });
  return findProjectForViewer(app, viewer, projectId);
}

/** What deleting these projects takes with it: counts and the stored files' keys. */
export async function historyOfProjects(tx: DbExecutor, projectIds: string[]): Promise<{ reports: number; messages: number; fileKeys: string[] }> {
  if (projectIds.length === 0) return { reports: 0, messages: 0, fileKeys: [] };
  const [counts] = await tx
    .select({
      reports: sql<number>`(select count(*) from ${progressReports} where ${inArray(progressReports.projectId, projectIds)})`.mapWith(Number),
      messages: sql<number>`(select count(*) from ${messages} where ${inArray(messages.projectId, projectIds)})`.mapWith(Number),
    })
    .from(sql`(select 1) as one`);
  const attachments = await tx
    .select({ key: messageFiles.storageKey })
    .from(messageFiles)
    .innerJoin(messages, eq(messages.id, messageFiles.messageId))
    .where(inArray(messages.projectId, projectIds));
  const images = await tx
    .select({ key: reportImages.storageKey, thumb: reportImages.thumbnailKey })
    .from(reportImages)
    .innerJoin(progressReports, eq(progressReports.id, reportImages.reportId))
    .where(inArray(progressReports.projectId, projectIds));
  const documents = await tx
    .select({ key: documentVersions.storageKey })
    .from(documentVersions)
    .innerJoin(projectDocuments, eq(projectDocuments.id, documentVersions.documentId))
    .where(inArray(projectDocuments.projectId, projectIds));
  const changeOrderFiles = await tx
    .select({ key: changeOrderAttachments.storageKey })
    .from(changeOrderAttachments)
    .innerJoin(changeOrders, eq(changeOrders.id, changeOrderAttachments.changeOrderId))
    .where(inArray(changeOrders.projectId, projectIds));
  return {
    ...counts,
    fileKeys: [...attachments.map((a) => a.key), ...images.flatMap((i) => [i.key, i.thumb]), ...documents.map((d) => d.key), ...changeOrderFiles.map((f) => f.key)],
  };
}

/** The typed name must match the record's name exactly, apart from surrounding spaces. */
export function nameConfirmed(typed: string | undefined, name: string): boolean {
  return typed !== undefined && typed.trim() === name.trim();
}

export const historyRefusal = (kind: 'project' | 'client', name: string) =>
  new AppError(
    'CONFLICT',
    `${name} has reports, messages or files: archive the ${kind}, or type its name to delete it with everything`,
    { needsName: true },
  );

/**
 * Deletes a project. Without history (no reports, messages or files) it goes at once; with history
 * only when `confirmName` is its exact name, and then everything with it, in one transaction. The
 * stored files are removed after the commit; any the removal misses are swept (decision 249).
 */
export async function deleteProject(app: FastifyInstance, viewer: Viewer, projectId: string, confirmName: string | undefined, who: AuditContext): Promise<DeleteOutcome> {
  const { outcome, fileKeys } = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: projects.name, clientId: projects.clientId })
      .from(projects)
      .where(and(eq(projects.id, projectId), projectScope(viewer)))
      .for('update');
    if (!row) throw notFound('Project not found');
    await refuseDeleteWhenInvoiced(tx, [projectId], 'project');
    const history = await historyOfProjects(tx, [projectId]);
    const hasHistory = history.reports + history.messages + history.fileKeys.length > 0;
    if (hasHistory && !nameConfirmed(confirmName, row.name)) throw historyRefusal('project', row.name);
    await tx.delete(projects).where(eq(projects.id, projectId));
    await publishChange(tx, { type: 'project.status', clientId: row.clientId, projectId, id: projectId });
    await recordAudit(tx, who, { action: 'project.delete', entityId: projectId, projectId, before: { ...row, ...history, fileKeys: history.fileKeys.length } });
    return {
      outcome: { name: row.name, projects: 1, reports: history.reports, messages: history.messages, files: history.fileKeys.length },
      fileKeys: history.fileKeys,
    };
  });
  await removeStoredFiles(app, fileKeys);
  return outcome;
}

/** A client's unsent uploads (their files go with the client). */
export async function unsentUploadKeys(tx: DbExecutor, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ key: messageFiles.storageKey })
    .from(messageFiles)
    .where(and(eq(messageFiles.uploaderId, userId), isNull(messageFiles.messageId)));
  return rows.map((r) => r.key);
}
