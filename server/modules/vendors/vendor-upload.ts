import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../../common/errors.ts';
import {
  fileExtension,
  VENDOR_CERTIFICATION_FILES_FIELD,
  VENDOR_CERTIFICATION_FILES_MAX,
  VENDOR_COMPANY_PROFILE_FIELD,
  VENDOR_FILE_MAX_BYTES,
  VENDOR_MESSAGES,
  VENDOR_TOTAL_MAX_BYTES,
  isAcceptedVendorFileName,
} from '../../../common/schemas/vendors.ts';
import { sniffFileType } from '../../storage/file-type.ts';
import { keepStorableField } from '../../plugins/storable-input.ts';
import { assertImageDimensions, VENDOR_IMAGE_LIMIT } from '../../lib/image-limits.ts';
import { cleanFileName } from '../../lib/file-names.ts';

/** A document already written to storage, waiting for its database row. */
export interface StoredVendorDocument {
  id: string;
  kind: 'certification' | 'company-profile';
  storageKey: string;
  originalName: string;
  mimeType: string;
  size: number;
  position: number;
}

export interface VendorUpload {
  applicationId: string;
  fields: Record<string, string>;
  documents: StoredVendorDocument[];
  /** Removes every file this upload wrote (the application was not stored). */
  discard(): Promise<void>;
}

// Office files are zip or OLE containers; the sniffer may need more than the first 4 KB to name them.
const SNIFF_HEAD_BYTES = 64 * 1024;
const TEXT_FIELDS_MAX = 40;
// Above the longest text field (4,000 characters of up to 4 bytes) so zod, not truncation, refuses it.
const TEXT_FIELD_MAX_BYTES = 20_000;

/** For each accepted extension: the types the bytes may show, and the type we store and serve. */
const ACCEPTED_BYTES: Record<string, { sniffed: string[]; mime?: string; ext: string }> = {
  pdf: { sniffed: ['pdf'], ext: 'pdf' },
  doc: { sniffed: ['cfb'], mime: 'application/msword', ext: 'doc' },
  xls: { sniffed: ['cfb'], mime: 'application/vnd.ms-excel', ext: 'xls' },
  docx: { sniffed: ['docx', 'xlsx'], ext: 'docx' },
  xlsx: { sniffed: ['xlsx', 'docx'], ext: 'xlsx' },
  jpg: { sniffed: ['jpg'], ext: 'jpg' },
  jpeg: { sniffed: ['jpg'], ext: 'jpg' },
  png: { sniffed: ['png'], ext: 'png' },
};

/**
 * Reads the multipart body of a vendor registration: text fields, up to five certification files and
 * one company profile. Each file streams to storage while its size (10 MB each, 20 MB together) is
 * counted; its first bytes must show one of the accepted types. Any failure removes what was written.
 */
export async function readVendorUpload(
  app: FastifyInstance,
  request: FastifyRequest,
  options: {
    /**
     * Judges the submission from the fields seen before the first file (the form sends its guard
     * fields first), so a bot's files are never written; 'drop' reads the rest of the body away.
     */
    guard: (fields: Record<string, string>) => Promise<'accept' | 'drop'>;
  },
): Promise<VendorUpload & { dropped: boolean }> {
  if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as multipart/form-data');
  const applicationId = randomUUID();
  const fields: Record<string, string> = {};
  const documents: StoredVendorDocument[] = [];
  const written: string[] = [];
  let total = 0;
  let certifications = 0;
  let profiles = 0;
  let verdict: 'accept' | 'drop' | undefined;

  const discard = async () => {
    await Promise.all(written.map((key) => app.storage.delete(key).catch((err) => app.log.error({ err, key }, 'could not remove an orphan upload'))));
    written.length = 0;
  };

  try {
    const parts = request.parts({
      limits: {
        // A backstop only: the counter below refuses the first byte over the limit with the right words.
        fileSize: VENDOR_FILE_MAX_BYTES + 1,
        files: VENDOR_CERTIFICATION_FILES_MAX + 1,
        fields: TEXT_FIELDS_MAX,
        fieldSize: TEXT_FIELD_MAX_BYTES,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        keepStorableField(fields, part);
        continue;
      }
      verdict ??= await options.guard(fields);
      if (verdict === 'drop') {
        part.file.resume();
        continue;
      }
      const field = part.fieldname;
      const isCertification = field === VENDOR_CERTIFICATION_FILES_FIELD || field === 'certifications';
      const isProfile = field === VENDOR_COMPANY_PROFILE_FIELD;
      if (!isCertification && !isProfile) {
        part.file.resume();
        throw badRequest(`Unexpected file field ${field}`);
      }
      if (isCertification && ++certifications > VENDOR_CERTIFICATION_FILES_MAX) {
        part.file.resume();
        throw badRequest(VENDOR_MESSAGES.tooManyCertifications);
      }
      if (isProfile && ++profiles > 1) {
        part.file.resume();
        throw badRequest('Send one company profile only');
      }
      const name = cleanFileName(part.filename, 'document');
      const accepted = ACCEPTED_BYTES[fileExtension(name)];
      if (!accepted || !isAcceptedVendorFileName(name)) {
        part.file.resume();
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', VENDOR_MESSAGES.wrongFileType(name));
      }

      let size = 0;
      let head = Buffer.alloc(0);
      const tooLarge = isProfile ? VENDOR_MESSAGES.companyProfileTooLarge : VENDOR_MESSAGES.fileTooLarge(name);
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          total += chunk.length;
          if (head.length < SNIFF_HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, SNIFF_HEAD_BYTES - head.length)]);
          if (size > VENDOR_FILE_MAX_BYTES) return callback(new AppError('PAYLOAD_TOO_LARGE', tooLarge));
          if (total > VENDOR_TOTAL_MAX_BYTES) return callback(new AppError('PAYLOAD_TOO_LARGE', VENDOR_MESSAGES.totalTooLarge));
          callback(null, chunk);
        },
      });
      const id = randomUUID();
      const key = `vendor-applications/${applicationId}/${id}.${accepted.ext}`;
      const source: Readable = part.file;
      // pipeline() carries an error of either stream to the other; its own rejection is the storage's too.
      const feeding = pipeline(source, counter).catch(() => undefined);
      try {
        await app.storage.put(key, counter);
        await feeding;
      } catch (err) {
        // Whatever the storage did, nothing may stay behind under this key; the rest of the body is dropped.
        source.resume();
        await app.storage.delete(key).catch(() => undefined);
        throw err;
      }
      written.push(key);
      // The busboy backstop truncates silently when reached; the counter normally fires first.
      if ((part.file as Readable & { truncated?: boolean }).truncated) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge);
      const sniffed = await sniffFileType(head);
      if (!sniffed || !accepted.sniffed.includes(sniffed.ext)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', VENDOR_MESSAGES.wrongFileType(name));
      }
      // A scanned certificate may be a photo that staff open in the browser (decision 112).
      if (sniffed.mime.startsWith('image/')) await assertImageDimensions(head, name, VENDOR_IMAGE_LIMIT);
      documents.push({
        id,
        kind: isProfile ? 'company-profile' : 'certification',
        storageKey: key,
        originalName: name,
        mimeType: accepted.mime ?? sniffed.mime,
        size,
        position: documents.length,
      });
    }
    verdict ??= await options.guard(fields);
  } catch (err) {
    await discard();
    throw err;
  }
  return { applicationId, fields, documents, discard, dropped: verdict === 'drop' };
}
