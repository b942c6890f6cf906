import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import type { Attachment, AttachmentKind } from '../../../common/schemas/messages.ts';
import { messageFiles, messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import type { UserRole } from '../../db/schema/users.ts';
import type { StoredAttachment } from './attachment-store.ts';
import { clientProjectCondition } from '../organisations/client-scope.ts';

export interface Viewer {
  _id: string;
  role: UserRole;
}

export interface ServedFile {
  id: string;
  storageKey: string;
  name: string;
  mimeType: string;
  kind: AttachmentKind;
  size: number;
}

// An attachment uploaded but never sent is removed after a day: the composer sends within minutes.
const UNSENT_FILE_TTL_MS = 24 * 60 * 60_000;
const SWEEP_BATCH = 50;
// One sweep does a bounded amount of work; what is left waits for the next upload.
const SWEEP_MAX_BATCHES = 10;

/** Where the browser fetches an attachment (the files route checks who asks). */
const fileUrl = (id: string) => `/api/files/${id}`;

/** The API shape of an attachment. */
export function toAttachment(row: { id: string; name: string; mimeType: string; kind: AttachmentKind; size: number }): Attachment {
  return { url: fileUrl(row.id), publicId: row.id, type: row.kind, name: row.name, mimeType: row.mimeType, size: row.size };
}

/** Records an upload as its uploader's, not yet attached to a message. */
export async function recordUploadedFile(app: FastifyInstance, uploaderId: string, file: StoredAttachment): Promise<Attachment> {
  const [row] = await app.db
    .insert(messageFiles)
    .values({
      id: file.id,
      uploaderId,
      storageKey: file.storageKey,
      name: file.name,
      mimeType: file.type.mime,
      kind: file.type.kind,
      size: file.size,
      createdAt: app.clock.now(),
    })
    .returning();
  return toAttachment(row);
}

/**
 * The file if the viewer may have it: an unsent upload only to its uploader; a sent one to the
 * project's client and to staff. Anything else is "not found", exactly like a missing file.
 */
export async function findFileForViewer(app: FastifyInstance, viewer: Viewer, fileId: string): Promise<ServedFile> {
  const [row] = await app.db
    .select({
      id: messageFiles.id,
      storageKey: messageFiles.storageKey,
      name: messageFiles.name,
      mimeType: messageFiles.mimeType,
      kind: messageFiles.kind,
      size: messageFiles.size,
    })
    .from(messageFiles)
    .leftJoin(messages, eq(messages.id, messageFiles.messageId))
    .leftJoin(projects, eq(projects.id, messages.projectId))
    .where(
      and(
        eq(messageFiles.id, fileId),
        or(
          and(isNull(messageFiles.messageId), eq(messageFiles.uploaderId, viewer._id)),
          viewer.role === 'admin' ? sql`${messageFiles.messageId} is not null` : clientProjectCondition(viewer),
        ),
      ),
    )
    .limit(1);
  if (!row) throw notFound('File not found');
  return row;
}

/** Removes uploads that were never sent within their time, rows and bytes, a batch at a time. Returns how many. */
export async function sweepUnsentFiles(app: FastifyInstance, maxBatches = SWEEP_MAX_BATCHES): Promise<number> {
  const cutoff = new Date(app.clock.now().getTime() - UNSENT_FILE_TTL_MS);
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const stale = await app.db
      .select({ id: messageFiles.id })
      .from(messageFiles)
      .where(and(isNull(messageFiles.messageId), lt(messageFiles.createdAt, cutoff)))
      .limit(SWEEP_BATCH);
    if (stale.length === 0) break;
    // Rows first: a row without bytes would be a broken link, bytes without a row are invisible.
    const removed = await app.db
      .delete(messageFiles)
      .where(and(inArray(messageFiles.id, stale.map((s) => s.id)), isNull(messageFiles.messageId)))
      .returning({ storageKey: messageFiles.storageKey });
    for (const { storageKey } of removed) await app.storage.delete(storageKey).catch((err) => app.log.warn({ err }, 'could not delete an unsent file'));
    total += removed.length;
    if (stale.length < SWEEP_BATCH) break;
  }
  return total;
}
