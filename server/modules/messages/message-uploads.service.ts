import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { badRequest } from '../../../common/errors.ts';
import { MESSAGE_ATTACHMENT_MAX_BYTES, type Attachment, type JsonUploadBody } from '../../../common/schemas/messages.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { giveBackRateLimit, hitRateLimit, type RateLimitRule } from '../../lib/rate-limit.ts';
import { decodeBase64Upload, sanitizeAttachmentName, storeAttachment, tooLarge, type StoredAttachment } from '../files/attachment-store.ts';
import { recordUploadedFile, sweepUnsentFiles } from '../files/files.service.ts';

/** One attachment as it arrives: a multipart file part (read when asked for), or the specification's base64 JSON. */
export type AttachmentUpload =
  | {
      form: 'multipart';
      readFile: () => Promise<MultipartFile | undefined>;
      /** The request's declared length (NaN or 0 when it has none). */
      declaredBytes: number;
    }
  | { form: 'json'; body: JsonUploadBody };

/** The uploaded file, or the hourly byte budget refused it (429) and when to try again. */
export type UploadOutcome = { file: Attachment } | { refused: { retryAfterMs: number } };

/** Thrown inside an upload when the byte budget refuses it; answered as a refusal, not an error. */
class ByteBudgetRefused {
  constructor(readonly retryAfterMs: number) {}
}

const KIB = 1024;
const toKib = (bytes: number) => Math.ceil(bytes / KIB);

type Reserve = (bytes: number) => Promise<void>;

/**
 * Receives one attachment for its uploader, not yet attached to a message: its size is counted
 * against the hourly byte budget (in KiB) before it is stored, so concurrent uploads cannot all slip
 * under it; the file is stored (checked by its bytes) and recorded. Past the budget, or on any
 * failure, the reservation is given back and nothing is left in storage. Once stored, only the
 * stored bytes count. Unsent uploads of earlier days are swept after the answer.
 */
export async function uploadMessageAttachment(
  app: FastifyInstance,
  later: AfterAnswer,
  input: { uploaderId: string; upload: AttachmentUpload; byteBudget: RateLimitRule; log: FastifyBaseLogger },
): Promise<UploadOutcome> {
  const { uploaderId, upload, byteBudget } = input;
  // What this upload holds of the hourly byte budget (none until its size is known).
  const reserved = { kib: 0, windowStart: new Date(0) };
  const reserve: Reserve = async (bytes) => {
    const kib = toKib(Math.min(bytes, MESSAGE_ATTACHMENT_MAX_BYTES));
    const hit = await hitRateLimit(app, byteBudget, uploaderId, kib);
    if (!hit.allowed) {
      await giveBackRateLimit(app, byteBudget, uploaderId, hit.windowStart, kib);
      throw new ByteBudgetRefused(hit.retryAfterMs);
    }
    Object.assign(reserved, { kib, windowStart: hit.windowStart });
  };
  let stored: StoredAttachment | undefined;
  let file;
  try {
    stored = upload.form === 'multipart' ? await receiveMultipart(app, upload, reserve) : await receiveJson(app, upload.body, reserve);
    file = await recordUploadedFile(app, uploaderId, stored);
  } catch (err) {
    if (stored) await app.storage.delete(stored.storageKey).catch(() => undefined);
    // Nothing was stored: the whole reservation goes back.
    await giveBackRateLimit(app, byteBudget, uploaderId, reserved.windowStart, reserved.kib).catch((e) =>
      input.log.warn({ err: e }, 'could not release an upload reservation'),
    );
    if (err instanceof ByteBudgetRefused) return { refused: { retryAfterMs: err.retryAfterMs } };
    throw err;
  }
  // The reservation was the declared size; only the stored bytes count.
  await giveBackRateLimit(app, byteBudget, uploaderId, reserved.windowStart, reserved.kib - toKib(stored.size));
  // Uploads that were never sent are cleaned up now and then, here rather than on a timer.
  later(sweepUnsentFiles(app), 'sweeping unsent uploads failed');
  return { file };
}

/** The one file of a multipart upload (field "file", with optional "name" and "mimeType" fields before it), streamed into storage. */
async function receiveMultipart(
  app: FastifyInstance,
  upload: Extract<AttachmentUpload, { form: 'multipart' }>,
  reserve: Reserve,
): Promise<StoredAttachment> {
  let part;
  try {
    part = await upload.readFile();
  } catch (err) {
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw err;
    throw badRequest('The upload was interrupted before the whole file arrived');
  }
  if (!part) throw badRequest('Choose a file to upload');
  // The request's declared length bounds the file's size (a chunked body without one reserves the maximum).
  const declared = upload.declaredBytes;
  try {
    await reserve(Number.isFinite(declared) && declared > 0 ? declared : MESSAGE_ATTACHMENT_MAX_BYTES);
  } catch (err) {
    part.file.resume();
    throw err;
  }
  const field = (name: string) => {
    const f = part.fields[name];
    return f && !Array.isArray(f) && f.type === 'field' ? String(f.value) : undefined;
  };
  let name: string;
  try {
    name = sanitizeAttachmentName(field('name') ?? part.filename);
  } catch (err) {
    part.file.resume();
    throw err;
  }
  // The multipart reader stops at the limit and says so; the stored file must not be a cut-off one.
  part.file.once('limit', () => part.file.destroy(tooLarge(name)));
  const stored = await storeAttachment(app, { body: part.file, name, declaredMime: field('mimeType') ?? part.mimetype });
  // When the whole body arrived at once, the reader may have stopped at the limit before we listened.
  if (part.file.truncated) {
    await app.storage.delete(stored.storageKey).catch(() => undefined);
    throw tooLarge(name);
  }
  return stored;
}

/** The specification's JSON upload: the file as base64 (plain or a data: URL), decoded whole. */
async function receiveJson(app: FastifyInstance, body: JsonUploadBody, reserve: Reserve): Promise<StoredAttachment> {
  const name = sanitizeAttachmentName(body.name);
  const { bytes, declaredMime } = decodeBase64Upload(body.file, body.mimeType);
  if (bytes.length > MESSAGE_ATTACHMENT_MAX_BYTES) throw tooLarge(name);
  await reserve(bytes.length);
  return storeAttachment(app, { body: Readable.from([bytes]), name, declaredMime });
}
