import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import type { ProjectDocument } from '../../../common/schemas/documents.ts';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { findProjectForViewer } from '../projects/projects.service.ts';
import { DOCUMENT_FILE_TYPES } from './document-file.ts';
import { findDocumentRow, isClient, withVersions } from './document-rows.ts';

// The register's reads: the list, a version's bytes, and a version's facts for other domains. The
// writes are in document-uploads.service.ts (new documents and versions) and
// document-changes.service.ts (title, category, visibility).

/** A project's register: every document for staff, the visible ones for its client; 404 outside the viewer's scope. */
export async function listProjectDocuments(app: FastifyInstance, viewer: ScopeViewer, projectId: string): Promise<ProjectDocument[]> {
  await findProjectForViewer(app, viewer, projectId);
  const rows = await app.db
    .select()
    .from(projectDocuments)
    .where(and(eq(projectDocuments.projectId, projectId), isClient(viewer) ? eq(projectDocuments.visibleToClient, true) : undefined))
    .orderBy(asc(projectDocuments.category), asc(projectDocuments.title), asc(projectDocuments.createdAt));
  return withVersions(app, rows);
}

/** What the download route serves. */
export interface DocumentVersionFile {
  storageKey: string;
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  previewable: boolean;
  isImage: boolean;
}

/** A version's bytes if the viewer may see its document (hidden documents and other projects are 404). */
export async function findDocumentVersionFile(
  app: FastifyInstance,
  viewer: ScopeViewer,
  projectId: string,
  documentId: string,
  versionId: string,
): Promise<DocumentVersionFile> {
  await findDocumentRow(app.db, viewer, projectId, documentId);
  const [row] = await app.db
    .select()
    .from(documentVersions)
    .where(and(eq(documentVersions.id, versionId), eq(documentVersions.documentId, documentId)))
    .limit(1);
  if (!row) throw notFound('Document version not found');
  const type = DOCUMENT_FILE_TYPES[row.kind];
  return {
    storageKey: row.storageKey,
    fileName: row.fileName,
    mimeType: row.mimeType,
    size: row.size,
    sha256: row.sha256,
    previewable: type.preview,
    isImage: row.mimeType.startsWith('image/') && type.preview,
  };
}

/** A document version as other domains need it (approvals, decision 292): its document, project, number, label and SHA-256. */
export interface DocumentVersionFacts {
  versionId: string;
  documentId: string;
  projectId: string;
  title: string;
  number: number;
  label: string;
  fileName: string;
  size: number;
  sha256: string;
  uploadedAt: Date;
  /** Whether it is the document's current version (a newer upload supersedes it). */
  current: boolean;
  visibleToClient: boolean;
}

/**
 * A document version by its id with the facts an approval records, or null when there is none.
 * Pass the writing transaction and `lock` to hold the document row (FOR SHARE) until the commit, so
 * no new version or visibility change slips in between the check and the caller's write. The
 * caller applies the viewer's scope (e.g. by reading the project with findProjectForViewer first).
 */
export async function findDocumentVersion(
  db: DbExecutor,
  versionId: string,
  options: { lock?: boolean } = {},
): Promise<DocumentVersionFacts | null> {
  const query = db
    .select({
      version: documentVersions,
      document: projectDocuments,
      last: sql<number>`(select max(dv.number) from ${documentVersions} dv where dv.document_id = ${documentVersions.documentId})`.mapWith(Number),
    })
    .from(documentVersions)
    .innerJoin(projectDocuments, eq(projectDocuments.id, documentVersions.documentId))
    .where(eq(documentVersions.id, versionId))
    .limit(1);
  const [row] = options.lock ? await query.for('share', { of: projectDocuments }) : await query;
  if (!row) return null;
  return {
    versionId: row.version.id,
    documentId: row.document.id,
    projectId: row.document.projectId,
    title: row.document.title,
    number: row.version.number,
    label: row.version.label,
    fileName: row.version.fileName,
    size: row.version.size,
    sha256: row.version.sha256,
    uploadedAt: row.version.uploadedAt,
    current: row.version.number === row.last,
    visibleToClient: row.document.visibleToClient,
  };
}
