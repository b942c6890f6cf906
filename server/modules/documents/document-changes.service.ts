import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DocumentCategory, ProjectDocument } from '../../../common/schemas/documents.ts';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { findProjectForViewer } from '../projects/projects.service.ts';
import { announceDocument } from './document-notices.ts';
import { documentFor, findDocumentRow } from './document-rows.ts';

export interface DocumentChanges {
  title?: string;
  category?: DocumentCategory;
  visibleToClient?: boolean;
}

/** Renames, recategorises, shows or hides a document; showing it to the client tells the client as a new one would. */
export async function updateProjectDocument(
  app: FastifyInstance,
  later: AfterAnswer,
  viewer: ScopeViewer,
  projectId: string,
  documentId: string,
  changes: DocumentChanges,
  who: AuditContext,
): Promise<ProjectDocument> {
  const project = await findProjectForViewer(app, viewer, projectId);
  const now = app.clock.now();
  const { row, notice } = await app.db.transaction(async (tx) => {
    const { clientId } = await lockWritableProject(tx, viewer, projectId);
    const before = await findDocumentRow(tx, viewer, projectId, documentId, true);
    const [row] = await tx
      .update(projectDocuments)
      .set({ ...changes, updatedAt: now })
      .where(eq(projectDocuments.id, documentId))
      .returning();
    await recordAudit(tx, who, {
      action: 'document.update',
      entityId: documentId,
      projectId,
      before: { title: before.title, category: before.category, visibleToClient: before.visibleToClient },
      after: { title: row.title, category: row.category, visibleToClient: row.visibleToClient },
    });
    const shown = !before.visibleToClient && row.visibleToClient;
    const [current] = await tx
      .select({ label: documentVersions.label })
      .from(documentVersions)
      .where(eq(documentVersions.documentId, documentId))
      .orderBy(desc(documentVersions.number))
      .limit(1);
    // A hidden document's last event must still reach the client who had it on screen: it is sent as an update.
    const notice = await announceDocument(app, tx, {
      clientId,
      projectId,
      projectName: project.name,
      document: before.visibleToClient && !row.visibleToClient ? { ...row, visibleToClient: true } : row,
      versionLabel: current?.label ?? '',
      kind: shown ? 'shown' : 'updated',
    });
    return { row, notice };
  });
  if (notice.mailId) later(deliverQueuedMail(app, [notice.mailId]), 'document notification failed');
  return documentFor(app, row);
}
