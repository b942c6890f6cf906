import type { Multipart, MultipartFile } from '@fastify/multipart';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { AppError, badRequest, notFound } from '../../../common/errors.ts';
import {
  createDocumentFieldsSchema,
  documentUrls,
  newVersionFieldsSchema,
  type DocumentCategory,
  type DocumentVersion,
  type ProjectDocument,
} from '../../../common/schemas/documents.ts';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import { projects } from '../../db/schema/projects.ts';
import { users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { cleanFileName } from '../../lib/file-names.ts';
import { deliverQueuedMail, queueMail, type DbExecutor } from '../../mail/mailer.ts';
import { keepStorableField } from '../../plugins/storable-input.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { claimNotification } from '../messages/message-notifications.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { findProjectForViewer } from '../projects/projects.service.ts';
import { DOCUMENT_FILE_TYPES, storeDocumentFile, uploadFailed, withExtension, type StoredDocumentFile } from './document-file.ts';
import { documentMailRecipient, documentNotificationMail } from './document-mail.ts';

type DocumentRow = typeof projectDocuments.$inferSelect;
type VersionRow = typeof documentVersions.$inferSelect;

const isClient = (viewer: ScopeViewer) => viewer.role !== 'admin';

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
async function withVersions(app: FastifyInstance, rows: DocumentRow[]): Promise<ProjectDocument[]> {
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

/** One document the viewer may see (a hidden one is 404 to a client, like a missing one). */
async function findDocumentRow(db: DbExecutor, viewer: ScopeViewer, projectId: string, documentId: string, lock = false): Promise<DocumentRow> {
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

async function documentFor(app: FastifyInstance, row: DocumentRow): Promise<ProjectDocument> {
  const [document] = await withVersions(app, [row]);
  return document;
}

/**
 * Reads a document upload: text fields first, then the one `file` part, which is streamed into
 * storage (checked, hashed) only once the fields are valid. Parts after the file are refused.
 */
async function receiveDocumentUpload<S extends z.ZodType<object>>(
  app: FastifyInstance,
  projectId: string,
  parts: AsyncIterable<Multipart>,
  schema: S,
): Promise<{ fields: z.output<S>; file: StoredDocumentFile; fileName: string }> {
  const fields: Record<string, string> = {};
  let received: { fields: z.output<S>; file: StoredDocumentFile; fileName: string } | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (received) throw badRequest('Send the fields before the file');
        keepStorableField(fields, part);
        continue;
      }
      const filePart: MultipartFile = part;
      if (filePart.fieldname !== 'file' || received) {
        filePart.file.resume();
        throw badRequest(received ? 'Send one file per upload' : `Unexpected file field "${filePart.fieldname}": send the document as "file"`);
      }
      const parsed = schema.safeParse(fields);
      if (!parsed.success) {
        filePart.file.resume();
        const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
        throw new AppError('VALIDATION_FAILED', details[0] ? `${details[0].field}: ${details[0].message}` : 'The document is not valid', details);
      }
      const fileName = cleanFileName(filePart.filename, 'document');
      const file = await storeDocumentFile(app, { projectId, body: filePart.file, name: fileName });
      received = { fields: parsed.data as z.output<S>, file, fileName: withExtension(fileName, DOCUMENT_FILE_TYPES[file.kind].ext) };
    }
  } catch (err) {
    await uploadFailed(app, received?.file, err);
  }
  if (!received) throw badRequest('Choose a file to upload');
  return received;
}

type Notice = { mailId: string | null };

/**
 * In the writing transaction: the live event (staff only while the client cannot see the document)
 * and, when the client can, the mail to the client by the report mails' rules (their setting, one
 * per project per quiet period, decision 292).
 */
async function announce(
  app: FastifyInstance,
  tx: DbExecutor,
  facts: { clientId: string; projectId: string; projectName: string; document: DocumentRow; versionLabel: string; kind: 'created' | 'version' | 'shown' | 'updated' },
): Promise<Notice> {
  const { clientId, projectId, document } = facts;
  const type = !document.visibleToClient ? 'document.internal' : facts.kind === 'created' ? 'document.created' : 'document.updated';
  await publishChange(tx, { type, clientId, projectId, id: document.id });
  if (!document.visibleToClient || facts.kind === 'updated') return { mailId: null };
  const now = app.clock.now();
  const [client] = await tx.select({ name: users.name, email: users.email, reportMail: users.reportMail }).from(users).where(eq(users.id, clientId));
  if (!client?.reportMail || !(await claimNotification(tx, now, projectId, documentMailRecipient(clientId)))) return { mailId: null };
  const mail = documentNotificationMail(app, {
    clientName: client.name,
    clientEmail: client.email,
    projectId,
    projectName: facts.projectName,
    documentId: document.id,
    title: document.title,
    versionLabel: facts.versionLabel,
    newVersion: facts.kind === 'version',
    addedAt: now,
  });
  return { mailId: await queueMail(tx, app, mail) };
}

/**
 * Creates a document with its first version from a multipart upload (fields `title`, `category`,
 * `label`, `visibleToClient`, then `file`): the bytes are streamed into storage, then the rows, audit
 * event and live event are written in one transaction; the client's mail goes after the answer.
 */
export async function createProjectDocument(
  app: FastifyInstance,
  later: AfterAnswer,
  viewer: ScopeViewer,
  projectId: string,
  parts: () => AsyncIterable<Multipart>,
  who: AuditContext,
): Promise<ProjectDocument> {
  const project = await findProjectForViewer(app, viewer, projectId);
  const { fields, file, fileName } = await receiveDocumentUpload(app, projectId, parts(), createDocumentFieldsSchema);
  try {
    const now = app.clock.now();
    const { row, notice } = await app.db.transaction(async (tx) => {
      const { clientId } = await lockWritableProject(tx, viewer, projectId);
      const [document] = await tx
        .insert(projectDocuments)
        .values({ projectId, title: fields.title, category: fields.category, visibleToClient: fields.visibleToClient, createdBy: viewer._id, createdAt: now, updatedAt: now })
        .returning();
      const label = fields.label || 'Version 1';
      await tx
        .insert(documentVersions)
        .values({ documentId: document.id, number: 1, label, storageKey: file.storageKey, fileName, kind: file.kind, mimeType: file.mimeType, size: file.size, sha256: file.sha256, uploadedBy: viewer._id, uploadedAt: now });
      const row = document;
      await recordAudit(tx, who, {
        action: 'document.create',
        entityId: document.id,
        projectId,
        after: { title: row.title, category: row.category, visibleToClient: row.visibleToClient, label, fileName, size: file.size, sha256: file.sha256 },
      });
      const notice = await announce(app, tx, { clientId, projectId, projectName: project.name, document: row, versionLabel: label, kind: 'created' });
      return { row, notice };
    });
    if (notice.mailId) later(deliverQueuedMail(app, [notice.mailId]), 'document notification failed');
    return await documentFor(app, row);
  } catch (err) {
    await app.storage.delete(file.storageKey).catch(() => undefined);
    throw err;
  }
}

/**
 * Adds a version to a document (fields `label`, then `file`): it becomes the current one and the
 * previous is superseded. The document row is locked FOR UPDATE while the number is chosen, so two
 * uploads at once are numbered one after the other and the current pointer is always the newest.
 */
export async function addDocumentVersion(
  app: FastifyInstance,
  later: AfterAnswer,
  viewer: ScopeViewer,
  projectId: string,
  documentId: string,
  parts: () => AsyncIterable<Multipart>,
  who: AuditContext,
): Promise<ProjectDocument> {
  const project = await findProjectForViewer(app, viewer, projectId);
  await findDocumentRow(app.db, viewer, projectId, documentId);
  const { fields, file, fileName } = await receiveDocumentUpload(app, projectId, parts(), newVersionFieldsSchema);
  try {
    const now = app.clock.now();
    const { row, notice } = await app.db.transaction(async (tx) => {
      const { clientId } = await lockWritableProject(tx, viewer, projectId);
      // The document row's lock orders concurrent uploads: each reads the number the one before it wrote.
      await findDocumentRow(tx, viewer, projectId, documentId, true);
      const [previous] = await tx
        .select({ id: documentVersions.id, number: documentVersions.number })
        .from(documentVersions)
        .where(eq(documentVersions.documentId, documentId))
        .orderBy(desc(documentVersions.number))
        .limit(1);
      const last = previous?.number ?? 0;
      const number = last + 1;
      const label = fields.label || `Version ${number}`;
      const [version] = await tx
        .insert(documentVersions)
        .values({ documentId, number, label, storageKey: file.storageKey, fileName, kind: file.kind, mimeType: file.mimeType, size: file.size, sha256: file.sha256, uploadedBy: viewer._id, uploadedAt: now })
        .returning();
      const [row] = await tx.update(projectDocuments).set({ updatedAt: now }).where(eq(projectDocuments.id, documentId)).returning();
      await recordAudit(tx, who, {
        action: 'document.version',
        entityId: documentId,
        projectId,
        before: { currentVersionId: previous?.id ?? null },
        after: { currentVersionId: version.id, number, label, fileName, size: file.size, sha256: file.sha256 },
      });
      const notice = await announce(app, tx, { clientId, projectId, projectName: project.name, document: row, versionLabel: label, kind: 'version' });
      return { row, notice };
    });
    if (notice.mailId) later(deliverQueuedMail(app, [notice.mailId]), 'document notification failed');
    return await documentFor(app, row);
  } catch (err) {
    await app.storage.delete(file.storageKey).catch(() => undefined);
    throw err;
  }
}

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
    const notice = await announce(app, tx, {
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
