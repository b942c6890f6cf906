import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { z } from 'zod';
import { AppError, notFound } from '../../../common/errors.ts';
import {
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  MEDIA_TYPES,
  MEDIA_KINDS,
  MEDIA_WIDTHS,
  mediaAltSchema,
  mediaKindOf,
  mediaWidthsFor,
  PDF_MIME,
  type MediaKind,
  type MediaFormat,
  type MediaItem,
  type MediaUpdate,
} from '../../../common/schemas/media.ts';
import { paginationOf, type PaginationQuery } from '../../../common/schemas/pagination.ts';
import { mediaItems } from '../../db/schema/media.ts';
import { cleanFileName } from '../../lib/file-names.ts';
import { MEDIA_IMAGE_LIMIT } from '../../lib/image-limits.ts';
import { checkImage, deleteRenditionFiles, encodeRenditions, parseRenditionFile, storeRenditions } from '../../lib/image-renditions.ts';
import { pick, recordAudit, type AuditContext } from '../audit/audit.ts';
import { usagesOf } from './media-usage.ts';

const MAX_MB = MEDIA_MAX_BYTES / (1024 * 1024);
const mediaKey = (id: string, width: number, format: MediaFormat) => `media/${id}/${width}.${format}`;
/** A PDF item's one file (its public name is the same: /api/media/<id>/document.pdf). */
const PDF_FILE = 'document.pdf';
const pdfKey = (id: string) => `media/${id}/${PDF_FILE}`;
/** A PDF is known by its first bytes (the header may follow up to 1 KB of junk by the format's letter; we want it first). */
const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

type Row = typeof mediaItems.$inferSelect;
const toItem = (row: Row, usages: MediaItem['usages']): MediaItem => ({
  _id: row.id,
  originalName: row.originalName,
  mime: row.mime,
  kind: mediaKindOf(row.mime),
  width: row.width,
  height: row.height,
  bytes: row.bytes,
  altText: row.altText,
  focalX: row.focalX,
  focalY: row.focalY,
  // A PDF's one file is no rendition: it is listed for the sweep only.
  variants: row.variants.flatMap(({ format, width, height, size }) =>
    format === 'pdf' ? [] : [{ format, width, height, size }],
  ),
  usages,
  createdAt: row.createdAt.toISOString(),
});

// SVG is XML: it may carry scripts and outside references, and no sanitiser is among our dependencies.
const SVG = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i;

/** The alt text and the one file of a multipart upload, read whole (within MEDIA_MAX_BYTES) before anything is kept. */
async function readUpload(
  parts: AsyncIterable<Multipart>,
): Promise<{ alt: unknown; expected: unknown; bytes: Buffer | null; name: string }> {
  let alt: unknown;
  let expected: unknown;
  let file: { bytes: Buffer; name: string } | null = null;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.fieldname === 'altText') alt = part.value;
        if (part.fieldname === 'kind') expected = part.value;
        continue;
      }
      const name = cleanFileName(part.filename, 'image');
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new AppError('BAD_REQUEST', `Unexpected file field "${part.fieldname}": send the image as "file"`);
      }
      try {
        file = { bytes: await part.toBuffer(), name };
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('PAYLOAD_TOO_LARGE', `${name} is larger than ${MAX_MB} MB`);
        throw err;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw new AppError('BAD_REQUEST', 'Send one image at a time');
    throw err;
  }
  return { alt, expected, bytes: file?.bytes ?? null, name: file?.name ?? 'image' };
}

/** Inserts an item's row with its audit event in one transaction; on a failure removes its files. */
async function recordItem(
  app: FastifyInstance,
  who: AuditContext,
  values: typeof mediaItems.$inferInsert & { id: string },
): Promise<MediaItem> {
  try {
    const row = await app.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(mediaItems)
        .values({ ...values, createdBy: who.actorId, createdAt: app.clock.now(), updatedAt: app.clock.now() })
        .returning();
      await recordAudit(tx, who, {
        action: 'media.upload',
        entityId: values.id,
        after: {
          originalName: values.originalName,
          altText: values.altText,
          mime: values.mime,
          width: values.width,
          height: values.height,
        },
      });
      return inserted!;
    });
    return toItem(row, []);
  } catch (err) {
    await deleteRenditionFiles(app, values.variants);
    throw err;
  }
}

/** Keeps a PDF as uploaded (decision 295): no renditions, its one file listed with the row for the sweep. */
async function uploadPdf(
  app: FastifyInstance,
  who: AuditContext,
  bytes: Buffer,
  name: string,
  altText: string,
): Promise<MediaItem> {
  const id = randomUUID();
  const key = pdfKey(id);
  await app.storage.put(key, bytes, { contentType: PDF_MIME });
  const originalName = /\.pdf$/i.test(name) ? name : `${name}.pdf`;
  return recordItem(app, who, {
    id,
    originalName,
    mime: PDF_MIME,
    width: 0,
    height: 0,
    bytes: bytes.length,
    altText,
    variants: [{ format: 'pdf', width: 0, height: 0, key, size: bytes.length }],
  });
}

/**
 * Receives an image or a PDF with its alt text (multipart fields "altText", optionally "kind" =
 * image|pdf when the caller wants only that kind, and "file"): the alt text is checked first, then
 * the bytes (a PDF by its first bytes `%PDF-`), then the renditions are made and stored (an image)
 * or the file is kept as it is (a PDF), and the row recorded in one transaction with its audit event.
 * On any failure nothing is left: no row, no file.
 */
export async function uploadMedia(
  app: FastifyInstance,
  who: AuditContext,
  parts: AsyncIterable<Multipart>,
): Promise<MediaItem> {
  const { alt, expected, bytes, name } = await readUpload(parts);
  const altText = mediaAltSchema.safeParse(alt ?? '');
  if (!altText.success) {
    const message = altText.error.issues[0]?.message ?? MEDIA_MESSAGES.altRequired;
    throw new AppError('VALIDATION_FAILED', message, [{ field: 'altText', message }]);
  }
  if (expected !== undefined && !(MEDIA_KINDS as readonly unknown[]).includes(expected)) {
    throw new AppError('VALIDATION_FAILED', 'kind: image or pdf', [{ field: 'kind', message: 'Either image or pdf' }]);
  }
  const wanted = expected as MediaKind | undefined;
  if (!bytes) throw new AppError('BAD_REQUEST', MEDIA_MESSAGES.noFile);
  if (bytes.length === 0) throw new AppError('BAD_REQUEST', `${name} is empty`);
  if (isPdf(bytes)) {
    if (wanted === 'image') throw new AppError('UNSUPPORTED_MEDIA_TYPE', MEDIA_MESSAGES.pdfNotImage);
    return uploadPdf(app, who, bytes, name, altText.data);
  }
  if (wanted === 'pdf') throw new AppError('UNSUPPORTED_MEDIA_TYPE', MEDIA_MESSAGES.notPdf);
  if (SVG.test(bytes.subarray(0, 1024).toString('utf8')))
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', MEDIA_MESSAGES.svgRefused);

  const checked = await checkImage(bytes, name, MEDIA_TYPES, MEDIA_IMAGE_LIMIT);
  const started = performance.now();
  const encoded = await encodeRenditions(bytes, name, mediaWidthsFor(checked.width), MEDIA_IMAGE_LIMIT);
  const id = randomUUID();
  const variants = await storeRenditions(app, encoded, (w, f) => mediaKey(id, w, f));
  app.log.info(
    { mediaId: id, ms: Math.round(performance.now() - started), variants: variants.length },
    'media renditions made',
  );
  return recordItem(app, who, {
    id,
    originalName: name,
    mime: checked.mime,
    width: checked.width,
    height: checked.height,
    bytes: bytes.length,
    altText: altText.data,
    variants,
  });
}

/** A page of the library, newest first, each item with the places it is used; `q` keeps those whose alt text contains it. */
export async function listMedia(app: FastifyInstance, query: PaginationQuery & { q?: string; kind?: MediaKind }) {
  const where = and(
    query.q ? ilike(mediaItems.altText, `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    query.kind === 'pdf'
      ? eq(mediaItems.mime, PDF_MIME)
      : query.kind === 'image'
        ? ne(mediaItems.mime, PDF_MIME)
        : undefined,
  );
  const [rows, [total]] = await Promise.all([
    app.db
      .select()
      .from(mediaItems)
      .where(where)
      .orderBy(desc(mediaItems.createdAt), desc(mediaItems.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    app.db.select({ n: count() }).from(mediaItems).where(where),
  ]);
  const usages = await usagesOf(app.db, rows.map((r) => r.id));
  return { items: rows.map((r) => toItem(r, usages.get(r.id) ?? [])), pagination: paginationOf(query, total?.n ?? 0) };
}

/** One item with the places it is used (the picker shows the image a field names). */
export async function getMedia(app: FastifyInstance, id: string): Promise<MediaItem> {
  const [row] = await app.db.select().from(mediaItems).where(eq(mediaItems.id, id));
  if (!row) throw notFound(MEDIA_MESSAGES.notFound);
  return toItem(row, (await usagesOf(app.db, [id])).get(id) ?? []);
}

/** Changes the alt text and/or the focal point. */
export async function updateMedia(app: FastifyInstance, who: AuditContext, id: string, changes: MediaUpdate): Promise<MediaItem> {
  const row = await app.db.transaction(async (tx) => {
    const [before] = await tx.select().from(mediaItems).where(eq(mediaItems.id, id)).for('update');
    if (!before) throw notFound(MEDIA_MESSAGES.notFound);
    const [after] = await tx
      .update(mediaItems)
      .set({ ...changes, updatedAt: app.clock.now() })
      .where(eq(mediaItems.id, id))
      .returning();
    await recordAudit(tx, who, { action: 'media.update', entityId: id, before: pick(before, changes), after: pick(after!, changes) });
    return after!;
  });
  return toItem(row, (await usagesOf(app.db, [id])).get(id) ?? []);
}

/**
 * Deletes an item no place uses (409 naming the places otherwise), with its audit event, then its
 * files. The row goes first: a file left by a failed storage call is named by no row, and the sweep
 * of unnamed files removes it; a row whose files were gone would be a broken image on a page.
 */
export async function deleteMedia(app: FastifyInstance, who: AuditContext, id: string): Promise<void> {
  const variants = await app.db.transaction(async (tx) => {
    // FOR UPDATE waits for a publish that is recording a usage of this item (it holds KEY SHARE).
    const [row] = await tx.select().from(mediaItems).where(eq(mediaItems.id, id)).for('update');
    if (!row) throw notFound(MEDIA_MESSAGES.notFound);
    const usages = (await usagesOf(tx, [id])).get(id) ?? [];
    if (usages.length > 0) throw new AppError('CONFLICT', MEDIA_MESSAGES.inUse(usages.map((u) => u.label)), { usages });
    await tx.delete(mediaItems).where(eq(mediaItems.id, id));
    await recordAudit(tx, who, { action: 'media.delete', entityId: id, before: { originalName: row.originalName, altText: row.altText } });
    return row.variants;
  });
  await deleteRenditionFiles(app, variants);
}

const LARGEST = MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1];

/** A PDF item's file with the name it is offered under (the uploader's), or not found. */
export async function findMediaPdf(
  app: FastifyInstance,
  id: string,
): Promise<{ key: string; size: number; name: string }> {
  if (!z.uuid().safeParse(id).success) throw notFound(MEDIA_MESSAGES.notFound);
  const [row] = await app.db
    .select({ name: mediaItems.originalName, mime: mediaItems.mime })
    .from(mediaItems)
    .where(eq(mediaItems.id, id));
  if (!row || row.mime !== PDF_MIME) throw notFound(MEDIA_MESSAGES.notFound);
  const key = pdfKey(id);
  const stat = await app.storage.stat(key);
  if (!stat) throw notFound(MEDIA_MESSAGES.notFound);
  return { key, size: stat.size, name: row.name };
}

/** Whether a public file name under an item names its PDF. */
export const isPdfFile = (file: string) => file === PDF_FILE;

/** A stored rendition by its public file name ({width}.{format}); otherwise not found. */
export async function findMediaVariant(app: FastifyInstance, id: string, file: string): Promise<{ key: string; format: MediaFormat; size: number }> {
  const parsed = parseRenditionFile(id, file);
  if (!parsed || parsed.width < 1 || parsed.width > LARGEST) throw notFound(MEDIA_MESSAGES.notFound);
  const key = mediaKey(id, parsed.width, parsed.format);
  const stat = await app.storage.stat(key);
  if (!stat) throw notFound(MEDIA_MESSAGES.notFound);
  return { key, format: parsed.format, size: stat.size };
}
