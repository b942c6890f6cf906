import { randomUUID } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest } from '../../../common/errors.ts';
import {
  ATTACHMENT_TYPES,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_TEXTS,
  attachmentTypeOf,
  attachmentTypeOfName,
  type AttachmentType,
} from '../../../common/schemas/messages.ts';
import { sniffFileType } from '../../storage/file-type.ts';
import { UploadInspector } from '../../lib/upload-inspector.ts';
import { assertImageDimensions, PHOTO_LIMIT } from '../../lib/image-limits.ts';
import { displaySafeName } from '../../../common/file-names.ts';
import { shortenKeepingExtension } from '../../lib/file-names.ts';

/** A file written to storage under a server-generated key, not yet recorded in the database. */
export interface StoredAttachment {
  id: string;
  storageKey: string;
  name: string;
  type: AttachmentType;
  size: number;
}

const NAME_MAX_CHARS = 150;
// Declared types that say nothing: the file name's ending and the bytes decide then.
const GENERIC_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);
// Old Office files share one container format; its sniffed type covers the three.
const CFB_TYPES = new Set(['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint']);
// MP4 and QuickTime are the same container: a phone's .mov may carry an mp4 brand and back.
const ISO_VIDEO_TYPES = new Set(['video/mp4', 'video/quicktime']);
// Bidirectional controls make "gpj.exe" look like "exe.jpg" in a name.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const unsupportedType = (name: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', MESSAGE_TEXTS.invalidType(name));
export const tooLarge = (name: string) => new AppError('PAYLOAD_TOO_LARGE', MESSAGE_TEXTS.tooLarge(name));

/**
 * The uploader's file name as data: path characters are refused (a name is never a path), the rest
 * is normalised, stripped of direction controls and shortened around its extension.
 */
export function sanitizeAttachmentName(raw: string | undefined): string {
  const name = (raw ?? '').normalize('NFC');
  if (/[\\/]/.test(name) || CONTROL_CHARS.test(name) || name.trim() === '.' || name.trim() === '..') {
    throw badRequest('The file name must not contain path characters');
  }
  const cleaned = displaySafeName(name.replace(BIDI_CONTROLS, ''));
  if (!cleaned) return 'attachment';
  return shortenKeepingExtension(cleaned, NAME_MAX_CHARS);
}

/** The allowed types whose bytes look like the sniffed type. */
function candidatesFor(sniffedMime: string): AttachmentType[] {
  if (sniffedMime === 'application/x-cfb') return ATTACHMENT_TYPES.filter((t) => CFB_TYPES.has(t.mime));
  const found = attachmentTypeOf(sniffedMime);
  if (!found) return [];
  if (ISO_VIDEO_TYPES.has(found.mime)) return ATTACHMENT_TYPES.filter((t) => ISO_VIDEO_TYPES.has(t.mime));
  return [found];
}

/**
 * Decides the stored type from the file's first bytes, its declared type and its name. The bytes
 * must be one of the allowed types, and must be the type that was declared, if one was.
 */
async function decideAttachmentType(head: Buffer, declaredMime: string | undefined, name: string): Promise<AttachmentType> {
  const sniffed = await sniffFileType(head);
  const candidates = sniffed ? candidatesFor(sniffed.mime) : [];
  if (candidates.length === 0) throw unsupportedType(name);
  const declared = (declaredMime ?? '').split(';')[0].trim().toLowerCase();
  const fromName = attachmentTypeOfName(name);
  let type: AttachmentType;
  if (!GENERIC_TYPES.has(declared)) {
    const named = attachmentTypeOf(declared);
    if (!named || !candidates.includes(named)) throw unsupportedType(name);
    type = named;
  } else {
    type = fromName && candidates.includes(fromName) ? fromName : candidates[0];
  }
  // Images are shown inline: their declared size is checked before a byte is kept (decision 112).
  if (type.kind === 'image') await assertImageDimensions(head, name, PHOTO_LIMIT);
  return type;
}

/** Where a message attachment's bytes live: a server-generated key, fanned out so no folder grows huge. */
function attachmentKey(id: string): string {
  return `messages/${id.slice(0, 2)}/${id}`;
}

/**
 * Streams an upload into storage, checking its size while it flows and its type by its bytes.
 * On any failure nothing is left in storage. Errors of the incoming stream itself (a cut-off
 * multipart body) are reported as a bad request, never as a server failure.
 */
export async function storeAttachment(
  app: FastifyInstance,
  input: { body: Readable; name: string; declaredMime?: string; maxBytes?: number },
): Promise<StoredAttachment> {
  const id = randomUUID();
  const storageKey = attachmentKey(id);
  const inspector = new UploadInspector<AttachmentType>({
    name: input.name,
    maxBytes: input.maxBytes ?? MESSAGE_ATTACHMENT_MAX_BYTES,
    tooLarge,
    judge: (head) => decideAttachmentType(head, input.declaredMime, input.name),
  });
  let sourceError: Error | undefined;
  input.body.once('error', (err) => {
    sourceError ??= err;
  });
  const checked = pipeline(input.body, inspector, () => undefined);
  try {
    await app.storage.put(storageKey, checked, { contentType: 'application/octet-stream' });
  } catch (err) {
    await app.storage.delete(storageKey).catch(() => undefined);
    if (err instanceof AppError) throw err;
    const status = (sourceError as { statusCode?: number } | undefined)?.statusCode;
    if (status === 413) throw tooLarge(input.name);
    if (sourceError) throw badRequest('The upload was interrupted before the whole file arrived');
    throw err;
  }
  if (!inspector.kind) {
    await app.storage.delete(storageKey).catch(() => undefined);
    throw unsupportedType(input.name);
  }
  return { id, storageKey, name: input.name, type: inspector.kind, size: inspector.size };
}

/** Decodes the specification's base64 upload (plain or as a data: URL) and its declared type. */
export function decodeBase64Upload(file: string, declaredMime: string | undefined): { bytes: Buffer; declaredMime: string | undefined } {
  let data = file;
  let mime = declaredMime;
  const dataUrl = /^data:([^;,]*)(;[^,]*)?,/.exec(file.slice(0, 300));
  if (dataUrl) {
    if (!/;base64/i.test(dataUrl[2] ?? '')) throw badRequest('The file must be base64-encoded');
    data = file.slice(dataUrl[0].length);
    mime ??= dataUrl[1] || undefined;
  }
  // Buffer.from skips characters it does not know; a body that is not base64 must not pass as one.
  // (Tested in place: a copy without whitespace would cost another 67 MB for a 50 MB file.)
  if (!/^[A-Za-z0-9+/_\-\s]*(={0,2})\s*$/.test(data)) throw badRequest('The file must be base64-encoded');
  return { bytes: Buffer.from(data, 'base64'), declaredMime: mime };
}
