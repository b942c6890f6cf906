import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import { documentUrls, type DocumentVersion, type ProjectDocument } from '../../../common/schemas/documents.ts';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { DOCUMENT_FILE_TYPES } from './document-file.ts';

// The document rows as every read and write of the register answers them: a document with its
// versions, current first, and the one-document read that applies the viewer's scope.

export type DocumentRow = typeof projectDocuments.$inferSelect;
type VersionRow = typeof documentVersions.$inferSelect;

export const isClient = (viewer: ScopeViewer) => viewer.role !== 'admin';

function toVersion(projectId: string, row: VersionRow, uploaders: Map<string, string>, superseded: boolean): DocumentVersion {
  return {
    _id: row.id,
    number: row.number,
    label: row.label,
    fileName: row.fileName,
    mimeType: row.mimeType,
    size: row.size,
    sha256: row.sha256,
    uploadedBy: row.uploadedBy ? (uploaders.get(row.uploadedBy) ?? null) : null,
    uploadedAt: row.uploadedAt.toISOString(),
    superseded,
    url: documentUrls.file(projectId, row.documentId, row.id),
    previewable: DOCUMENT_FILE_TYPES[row.kind].preview,
  };
}

/** The documents with their versions (two more queries, whatever the count), current first. */
export async function withVersions(app: FastifyInstance, rows: DocumentRow[]): Promise<ProjectDocument[]> {
  if (rows.length === 0) return [];
  const versions = await app.db
    .select()
    .from(documentVersions)
    .where(inArray(documentVersions.documentId, rows.map((r) => r.id)))
    .orderBy(asc(documentVersions.documentId), desc(documentVersions.number));
  const uploaderIds = [...new Set(versions.map((v) => v.uploadedBy).filter((id): id is string => id !== null))];
  const uploaders = new Map(
    uploaderIds.length === 0
      ? []
      : (await app.db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, uploaderIds))).map((u) => [u.id, u.name] as const),
  );
  const byDocument = new Map<string, VersionRow[]>();
  for (const v of versions) byDocument.set(v.documentId, [...(byDocument.get(v.documentId) ?? []), v]);
  return rows.flatMap((row) => {
    // Newest first: the current version is the highest-numbered (decision 292).
    const own = byDocument.get(row.id) ?? [];
    const current = own[0];
    if (!current) return [];
    return [
      {
        _id: row.id,
        projectId: row.projectId,
        title: row.title,
        category: row.category,
        visibleToClient: row.visibleToClient,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
        current: toVersion(row.projectId, current, uploaders, false),
        superseded: own.filter((v) => v.id !== current.id).map((v) => toVersion(row.projectId, v, uploaders, true)),
      },
    ];
  });
}

/** One document the viewer may see (a hidden one is 404 to a client, like a missing one). */
export async function findDocumentRow(db: DbExecutor, viewer: ScopeViewer, projectId: string, documentId: string, lock = false): Promise<DocumentRow> {
  const query = db
    .select({ document: projectDocuments })
    .from(projectDocuments)
    .innerJoin(projects, eq(projects.id, projectDocuments.projectId))
    .where(
      and(
        eq(projectDocuments.id, documentId),
        eq(projectDocuments.projectId, projectId),
        projectScope(viewer),
        isClient(viewer) ? eq(projectDocuments.visibleToClient, true) : undefined,
      ),
    )
    .limit(1);
  const [row] = lock ? await query.for('update', { of: projectDocuments }) : await query;
  if (!row) throw notFound('Document not found');
  return row.document;
}

/** One document with its versions, as the writes answer it. */
export async function documentFor(app: FastifyInstance, row: DocumentRow): Promise<ProjectDocument> {
  const [document] = await withVersions(app, [row]);
  return document;
}
