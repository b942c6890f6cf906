import { randomUUID } from 'node:crypto';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest, conflict, notFound } from '../../../common/errors.ts';
import { CHANGE_ORDER_ATTACHMENT_MAX_BYTES, CHANGE_ORDER_ATTACHMENTS_MAX, type ChangeOrder } from '../../../common/schemas/change-orders.ts';
import { changeOrderAttachments } from '../../db/schema/change-orders.ts';
import { publishChange } from '../../events/portal-events.ts';
import { cleanFileName } from '../../lib/file-names.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { DOCUMENT_FILE_TYPES, storeCheckedFile, uploadFailed, withExtension, type StoredDocumentFile } from '../documents/document-file.ts';
import { removeStoredFiles } from '../files/stored-files.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { changeOrderOut, visibleChangeOrder } from './change-orders-read.ts';
import { lockChangeOrder, refuseUnless } from './change-orders.service.ts';

// Attachments of change orders (decision 296): staff add and remove files while a change order is a
// draft; once sent they are frozen (409), because the client decides on them and the certificate
// lists their SHA-256. The bytes are checked and hashed as they stream, by the documents' path
// (the same kinds: PDF, images, Office, DWG/DXF, ZIP), under a key of their own.

const MB = 1024 * 1024;
const FROZEN = 'Attachments can only change while the change order is a draft';
const FULL = `A change order holds at most ${CHANGE_ORDER_ATTACHMENTS_MAX} attachments: remove one first`;

const tooLarge = (name: string) => new AppError('PAYLOAD_TOO_LARGE', `${name} is larger than ${CHANGE_ORDER_ATTACHMENT_MAX_BYTES / MB} MB, the largest change order attachment`);
const unsupported = (name: string) =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${name} cannot be attached: attach a PDF, a JPEG, PNG or WebP image, a Word, Excel or PowerPoint file (docx, xlsx, pptx), a DWG or DXF drawing, or a ZIP`,
  );

const attachmentKey = (projectId: string) => `change-orders/${projectId}/${randomUUID()}`;

async function attachmentCount(db: DbExecutor, changeOrderId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(changeOrderAttachments)
    .where(eq(changeOrderAttachments.changeOrderId, changeOrderId));
  return n;
}

/** Reads the upload's one `file` part into storage (checked, hashed); other fields are ignored, a second file refused. */
async function receiveAttachment(app: FastifyInstance, projectId: string, parts: AsyncIterable<Multipart>): Promise<{ file: StoredDocumentFile; fileName: string }> {
  let received: { file: StoredDocumentFile; fileName: string } | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') continue;
      const filePart: MultipartFile = part;
      if (filePart.fieldname !== 'file' || received) {
        filePart.file.resume();
        throw badRequest(received ? 'Send one file per upload' : `Unexpected file field "${filePart.fieldname}": send the attachment as "file"`);
      }
      const name = cleanFileName(filePart.filename, 'attachment');
      const file = await storeCheckedFile(app, { storageKey: attachmentKey(projectId), body: filePart.file, name, maxBytes: CHANGE_ORDER_ATTACHMENT_MAX_BYTES, tooLarge, unsupported });
      received = { file, fileName: withExtension(name, DOCUMENT_FILE_TYPES[file.kind].ext) };
    }
  } catch (err) {
    await uploadFailed(app, received?.file, err);
  }
  if (!received) throw badRequest('Choose a file to attach');
  return received;
}

/**
 * Attaches one file (multipart `file`) to a draft change order (staff). A change order no longer a
 * draft, or already holding the most files, is refused before a byte is read; the bytes are then
 * streamed into storage, and the row is written with the change order locked FOR UPDATE, where the
 * draft state and the count are checked again: of uploads racing for the last place exactly one is
 * recorded, the others answer 409 and their files are removed.
 */
export async function addChangeOrderAttachment(
  app: FastifyInstance,
  viewer: ScopeViewer,
  id: string,
  parts: () => AsyncIterable<Multipart>,
  who: AuditContext,
): Promise<ChangeOrder> {
  const before = await visibleChangeOrder(app.db, viewer, id);
  refuseUnless(before, 'draft', FROZEN);
  if ((await attachmentCount(app.db, id)) >= CHANGE_ORDER_ATTACHMENTS_MAX) throw conflict(FULL);
  const { file, fileName } = await receiveAttachment(app, before.projectId, parts());
  try {
    return await app.db.transaction(async (tx) => {
      const { project, row } = await lockChangeOrder(tx, viewer, id);
      refuseUnless(row, 'draft', FROZEN);
      if ((await attachmentCount(tx, id)) >= CHANGE_ORDER_ATTACHMENTS_MAX) throw conflict(FULL);
      const [attachment] = await tx
        .insert(changeOrderAttachments)
        .values({ changeOrderId: id, fileName, contentType: file.mimeType, sizeBytes: file.size, sha256: file.sha256, storageKey: file.storageKey, createdAt: app.clock.now(), createdBy: viewer._id })
        .returning({ id: changeOrderAttachments.id });
      await publishChange(tx, { type: 'change-order.updated', clientId: project.clientId, projectId: project.id, id });
      await recordAudit(tx, who, { action: 'change-order.attach', entityId: id, projectId: project.id, after: { attachmentId: attachment.id, fileName, size: file.size, sha256: file.sha256 } });
      return changeOrderOut(tx, row);
    });
  } catch (err) {
    await app.storage.delete(file.storageKey).catch(() => undefined);
    throw err;
  }
}

/** Removes an attachment from a draft change order (staff); its file goes after the commit. */
export async function removeChangeOrderAttachment(app: FastifyInstance, viewer: ScopeViewer, id: string, attachmentId: string, who: AuditContext): Promise<ChangeOrder> {
  const { changeOrder, storageKey } = await app.db.transaction(async (tx) => {
    const { project, row } = await lockChangeOrder(tx, viewer, id);
    refuseUnless(row, 'draft', FROZEN);
    const [removed] = await tx
      .delete(changeOrderAttachments)
      .where(and(eq(changeOrderAttachments.id, attachmentId), eq(changeOrderAttachments.changeOrderId, id)))
      .returning();
    if (!removed) throw notFound('Attachment not found');
    await publishChange(tx, { type: 'change-order.updated', clientId: project.clientId, projectId: project.id, id });
    await recordAudit(tx, who, { action: 'change-order.detach', entityId: id, projectId: project.id, before: { attachmentId, fileName: removed.fileName, size: removed.sizeBytes, sha256: removed.sha256 } });
    return { changeOrder: await changeOrderOut(tx, row), storageKey: removed.storageKey };
  });
  await removeStoredFiles(app, [storageKey]);
  return changeOrder;
}

/** What the download route serves. */
export interface ChangeOrderAttachmentFile {
  storageKey: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** An attachment's file if the viewer sees its change order (a client: once sent, on a project in scope); 404 otherwise. */
export async function findChangeOrderAttachmentFile(app: FastifyInstance, viewer: ScopeViewer, id: string, attachmentId: string): Promise<ChangeOrderAttachmentFile> {
  await visibleChangeOrder(app.db, viewer, id);
  const [row] = await app.db
    .select()
    .from(changeOrderAttachments)
    .where(and(eq(changeOrderAttachments.id, attachmentId), eq(changeOrderAttachments.changeOrderId, id)))
    .limit(1);
  if (!row) throw notFound('Attachment not found');
  return { storageKey: row.storageKey, fileName: row.fileName, contentType: row.contentType, size: row.sizeBytes, sha256: row.sha256 };
}
