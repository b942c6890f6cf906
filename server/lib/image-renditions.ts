import type { FastifyInstance, FastifyReply } from 'fastify';
import { STORED_FILE_POLICY } from '../plugins/security-headers.ts';
import type { Metadata } from 'sharp';
import { AppError } from '../../common/errors.ts';
import { SNIFF_BYTES, sniffFileType } from '../storage/file-type.ts';
import { exceedsImageLimit, IMAGE_TOO_LARGE, type ImageLimit } from './image-limits.ts';
import { loadSharp } from './lazy-modules.ts';

// The one path from an uploaded picture to its public renditions, shared by the blog's images and
// the media library (decision 286): judged by its bytes, refused when its header declares too many
// pixels, then re-encoded upright as AVIF and WebP at each width. sharp writes no metadata unless
// asked, so EXIF (GPS position, camera serial) never reaches storage.

export type RenditionFormat = 'avif' | 'webp';
/** One stored rendition: a width and a format under a server-generated key. */
export type ImageRendition = { format: RenditionFormat; width: number; height: number; key: string; size: number };

const FORMATS: readonly RenditionFormat[] = ['avif', 'webp'];
// Qualities that look clean on a phone and keep a 960 px banner well under 100 KB.
const AVIF_OPTIONS = { quality: 50, effort: 2 } as const;
const WEBP_OPTIONS = { quality: 78 } as const;

/** What the header of an accepted image says: its real type and its upright size. */
export interface CheckedImage {
  mime: string;
  width: number;
  height: number;
}

const unreadable = (fileName: string) => new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} could not be read as an image`);

/**
 * Checks an upload by its first bytes (never its name or declared type) against `types`, and its
 * declared dimensions against `limit` before a pixel is decoded (a "pixel bomb" is refused, 413).
 */
export async function checkImage(bytes: Buffer, fileName: string, types: readonly string[], limit: ImageLimit): Promise<CheckedImage> {
  const type = await sniffFileType(bytes.subarray(0, SNIFF_BYTES));
  if (!type || !types.includes(type.mime)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${fileName} is not a JPEG, PNG, WebP or AVIF image`);
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable(fileName);
  }
  if (!meta.width || !meta.height) throw unreadable(fileName);
  const declared = { width: meta.width, height: meta.pageHeight ?? meta.height, frames: meta.pages ?? 1 };
  if (exceedsImageLimit(declared, limit)) throw new AppError('PAYLOAD_TOO_LARGE', IMAGE_TOO_LARGE(fileName, declared, limit));
  // EXIF orientations 5 to 8 turn the picture a quarter: its upright width is the stored height.
  const turned = (meta.orientation ?? 1) >= 5;
  return { mime: type.mime, width: turned ? meta.height : meta.width, height: turned ? meta.width : declared.height };
}

/** A rendition encoded in memory, not yet stored. */
export interface EncodedRendition {
  format: RenditionFormat;
  width: number;
  height: number;
  data: Buffer;
}

/** Encodes AVIF and WebP at each width (never enlarged), upright, without metadata. */
export async function encodeRenditions(bytes: Buffer, fileName: string, widths: readonly number[], limit: ImageLimit): Promise<EncodedRendition[]> {
  const sharp = await loadSharp();
  const out: EncodedRendition[] = [];
  try {
    const image = sharp(bytes, { limitInputPixels: limit.maxPixels, failOn: 'error' }).rotate();
    // One rendition at a time: the CPU is shared with everyone else's requests.
    for (const width of widths) {
      for (const format of FORMATS) {
        const resized = image.clone().resize({ width, withoutEnlargement: true });
        const encoder = format === 'avif' ? resized.avif(AVIF_OPTIONS) : resized.webp(WEBP_OPTIONS);
        const { data, info } = await encoder.toBuffer({ resolveWithObject: true });
        out.push({ format, width, height: info.height, data });
      }
    }
  } catch {
    throw unreadable(fileName);
  }
  return out;
}

/** Writes encoded renditions under their keys; on a failure removes those written and rethrows. */
export async function storeRenditions(
  app: FastifyInstance,
  encoded: readonly EncodedRendition[],
  keyOf: (width: number, format: RenditionFormat) => string,
): Promise<ImageRendition[]> {
  const stored: ImageRendition[] = [];
  try {
    for (const r of encoded) {
      const key = keyOf(r.width, r.format);
      await app.storage.put(key, r.data, { contentType: `image/${r.format}` });
      stored.push({ format: r.format, width: r.width, height: r.height, key, size: r.data.length });
    }
  } catch (err) {
    await deleteRenditionFiles(app, stored);
    throw err;
  }
  return stored;
}

/** Removes renditions from storage; a failure is logged (the sweep of unnamed files finds the rest). */
export async function deleteRenditionFiles(app: FastifyInstance, renditions: readonly { key: string }[]): Promise<void> {
  await Promise.all(
    renditions.map((r) => app.storage.delete(r.key).catch((err) => app.log.error({ err, key: r.key }, 'could not delete an image rendition'))),
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RENDITION_FILE = /^(\d{1,5})\.(avif|webp)$/;

/** The width and format a public rendition file name ({width}.{format}) names under an image id, or null. */
export function parseRenditionFile(imageId: string, file: string): { width: number; format: RenditionFormat } | null {
  const match = RENDITION_FILE.exec(file);
  if (!match || !UUID.test(imageId)) return null;
  return { width: Number(match[1]), format: match[2] as RenditionFormat };
}

// A rendition never changes under its address (a new upload gets a new id), so browsers and CDNs keep it.
const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** Sends a stored rendition publicly: its own type, never sniffed, cached for a year. */
export async function sendRendition(app: FastifyInstance, reply: FastifyReply, rendition: { key: string; format: RenditionFormat; size: number }) {
  reply
    .type(`image/${rendition.format}`)
    .header('Content-Length', String(rendition.size))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', STORED_FILE_POLICY)
    .header('Cache-Control', IMAGE_CACHE_CONTROL);
  return reply.send(await app.storage.get(rendition.key));
}
