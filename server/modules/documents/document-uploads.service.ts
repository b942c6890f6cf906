import type { Multipart, MultipartFile } from '@fastify/multipart';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { AppError, badRequest } from '../../../common/errors.ts';
import { createDocumentFieldsSchema, newVersionFieldsSchema, type ProjectDocument } from '../../../common/schemas/documents.ts';
import { documentVersions, projectDocuments } from '../../db/schema/documents.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { cleanFileName } from '../../lib/file-names.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { keepStorableField } from '../../plugins/storable-input.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { findProjectForViewer } from '../projects/projects.service.ts';
import { DOCUMENT_FILE_TYPES, storeDocumentFile, uploadFailed, withExtension, type StoredDocumentFile } from './document-file.ts';
import { announceDocument } from './document-notices.ts';
import { documentFor, findDocumentRow } from './document-rows.ts';

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
      const notice = await announceDocument(app, tx, { clientId, projectId, projectName: project.name, document: row, versionLabel: label, kind: 'created' });
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
      const notice = await announceDocument(app, tx, { clientId, projectId, projectName: project.name, document: row, versionLabel: label, kind: 'version' });
      return { row, notice };
    });
    if (notice.mailId) later(deliverQueuedMail(app, [notice.mailId]), 'document notification failed');
    return await documentFor(app, row);
  } catch (err) {
    await app.storage.delete(file.storageKey).catch(() => undefined);
    throw err;
  }
}
