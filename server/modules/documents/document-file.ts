import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest } from '../../../common/errors.ts';
import { DOCUMENT_MAX_BYTES, type DocumentFileKind } from '../../../common/schemas/documents.ts';
import { sniffFileType } from '../../storage/file-type.ts';
import { UploadInspector } from '../../lib/upload-inspector.ts';

/** A version's bytes written to storage under a server-generated key, not yet recorded. */
export interface StoredDocumentFile {
  storageKey: string;
  kind: DocumentFileKind;
  mimeType: string;
  size: number;
  sha256: string;
}

/** What each kind is served as, and the file-name ending it is saved with. */
export const DOCUMENT_FILE_TYPES: Record<DocumentFileKind, { mime: string; ext: string; preview: boolean }> = {
  pdf: { mime: 'application/pdf', ext: 'pdf', preview: true },
  jpeg: { mime: 'image/jpeg', ext: 'jpg', preview: true },
  png: { mime: 'image/png', ext: 'png', preview: true },
  webp: { mime: 'image/webp', ext: 'webp', preview: true },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx', preview: false },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx', preview: false },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx', preview: false },
  dwg: { mime: 'image/vnd.dwg', ext: 'dwg', preview: false },
  dxf: { mime: 'image/vnd.dxf', ext: 'dxf', preview: false },
  zip: { mime: 'application/zip', ext: 'zip', preview: false },
};

const MB = 1024 * 1024;

const documentTooLarge = (name: string) =>
  new AppError('PAYLOAD_TOO_LARGE', `${name} is larger than ${DOCUMENT_MAX_BYTES / MB} MB, the largest document version`);
const unsupported = (name: string) =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${name} is not a file the register keeps: upload a PDF, a JPEG, PNG or WebP image, a Word, Excel or PowerPoint file (docx, xlsx, pptx), a DWG or DXF drawing, or a ZIP`,
  );

const SNIFFED: Record<string, DocumentFileKind> = {
  'application/pdf': 'pdf',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'image/vnd.dwg': 'dwg',
  'application/zip': 'zip',
};

/**
 * An ASCII DXF opens with a group code 0 and SECTION (the HEADER or another section), a binary one
 * with its sentinel; a DXF is text, so file-type has no signature for it.
 */
function isDxf(head: Buffer): boolean {
  if (head.subarray(0, 22).toString('latin1') === 'AutoCAD Binary DXF\r\n\x1a\x00') return true;
  const start = head.subarray(0, 4096).toString('latin1').replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  // Comments (group code 999) may come first.
  return /^(\s*999\r?\n[^\r\n]*\r?\n)*\s*0\r?\n\s*SECTION\r?\n/.test(start);
}

/** The kind of a version by its first bytes, never its name or declared type; null when not one the register keeps. */
async function documentKindOf(head: Buffer): Promise<DocumentFileKind | null> {
  const sniffed = await sniffFileType(head);
  const kind = sniffed ? SNIFFED[sniffed.mime] : undefined;
  if (kind) return kind;
  if ((!sniffed || sniffed.mime === 'text/plain') && isDxf(head)) return 'dxf';
  return null;
}

/** Where a version's bytes live: a server-generated key under the project, fanned out by the id. */
const documentKey = (projectId: string, id: string) => `documents/${projectId}/${id}`;

/** How a checked upload is stored and what its refusals say (documents here; change-order attachments, decision 296). */
export interface CheckedFileInput {
  storageKey: string;
  body: Readable & { truncated?: boolean };
  name: string;
  maxBytes: number;
  tooLarge: (name: string) => AppError;
  unsupported: (name: string) => AppError;
}

/**
 * Streams an upload into storage under `storageKey`, checking its size and its kind (the register's
 * kinds, by the bytes) and computing its SHA-256 as the bytes pass (memory stays flat whatever the
 * size). On any failure nothing is left in storage; a cut-off body is a 400, a body over the limit a 413.
 */
export async function storeCheckedFile(app: FastifyInstance, input: CheckedFileInput): Promise<StoredDocumentFile> {
  const { storageKey } = input;
  const inspector = new UploadInspector<DocumentFileKind>({
    name: input.name,
    maxBytes: input.maxBytes,
    tooLarge: input.tooLarge,
    sha256: true,
    judge: async (head) => {
      const kind = await documentKindOf(head);
      if (!kind) throw input.unsupported(input.name);
      return kind;
    },
  });
  let sourceError: Error | undefined;
  input.body.once('error', (err) => {
    sourceError ??= err;
  });
  // The multipart reader stops at its limit (the same number) and says so: never store a cut-off file.
  input.body.once('limit', () => input.body.destroy(input.tooLarge(input.name)));
  const checked = pipeline(input.body, inspector, () => undefined);
  try {
    await app.storage.put(storageKey, checked, { contentType: 'application/octet-stream' });
    if (input.body.truncated) throw input.tooLarge(input.name);
  } catch (err) {
    await app.storage.delete(storageKey).catch(() => undefined);
    if (err instanceof AppError) throw err;
    if (sourceError instanceof AppError) throw sourceError;
    const status = (sourceError as { statusCode?: number } | undefined)?.statusCode;
    if (status === 413) throw input.tooLarge(input.name);
    if (sourceError) throw badRequest('The upload was interrupted before the whole file arrived');
    throw err;
  }
  if (!inspector.kind) {
    await app.storage.delete(storageKey).catch(() => undefined);
    throw input.unsupported(input.name);
  }
  return { storageKey, kind: inspector.kind, mimeType: DOCUMENT_FILE_TYPES[inspector.kind].mime, size: inspector.size, sha256: inspector.digest() };
}

/** Streams a document version's upload into storage under the project (see storeCheckedFile). */
export function storeDocumentFile(
  app: FastifyInstance,
  input: { projectId: string; body: Readable & { truncated?: boolean }; name: string },
): Promise<StoredDocumentFile> {
  return storeCheckedFile(app, {
    storageKey: documentKey(input.projectId, randomUUID()),
    body: input.body,
    name: input.name,
    maxBytes: DOCUMENT_MAX_BYTES,
    tooLarge: documentTooLarge,
    unsupported,
  });
}

/** The name as saved: it ends in the kind's own extension (a PDF named "plan" is saved as "plan.pdf"). */
export function withExtension(name: string, ext: string): string {
  const lower = name.toLowerCase();
  if (lower.endsWith(`.${ext}`) || (ext === 'jpg' && lower.endsWith('.jpeg'))) return name;
  return `${name}.${ext}`;
}

/**
 * After a failed multipart read: removes the file already stored, and answers the multipart
 * reader's limit errors as the client's mistake (400); anything else is thrown on as it was.
 */
export async function uploadFailed(app: FastifyInstance, stored: StoredDocumentFile | undefined, err: unknown): Promise<never> {
  if (stored) await app.storage.delete(stored.storageKey).catch(() => undefined);
  const code = (err as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT') throw badRequest('Send one file per upload');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('The upload has too many fields');
  throw err;
}
