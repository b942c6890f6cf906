import { createHash } from 'node:crypto';
import { constants as zlibConstants, crc32, deflateRawSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { newCspNonce, pagePolicy } from '../plugins/security-headers.ts';
import { BoundedMap } from './bounded-map.ts';

export { PAGE_CACHE_UNTIL_HEADER } from '../../common/schemas/articles.ts';
// Query strings are the visitor's to choose: the cache keeps at most this many pages and bytes (each
// page with its two compressed forms), dropping the oldest (decision 182).
export const PAGE_CACHE_MAX_ENTRIES = 500;
export const PAGE_CACHE_MAX_BYTES = 16 * 1024 * 1024;

// The gzip member around the deflate data: magic, method (deflate), no flags, no time, no extra
// flags, operating system "unknown"; and the empty last block that ends the deflate data.
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const LAST_EMPTY_BLOCK = Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff]);

export interface CachedPage {
  status: number;
  /** The HTML cut at each place the script nonce goes (one piece when it has none). */
  pieces: Buffer[];
  /** Each piece as raw deflate data ending on a byte boundary (sync flush), for the gzip answer. */
  deflated: Buffer[];
  /** Names the HTML apart from its nonce, hence weak: each answer's bytes differ by the nonce. */
  etag: string;
  until: number;
}

/** The answer's HTML: the pieces joined by its nonce. */
export function pageHtml(page: CachedPage, nonce: string): Buffer {
  return join(page.pieces, Buffer.from(nonce, 'utf8'));
}

/**
 * The answer's HTML as one gzip member without compressing it again: the pieces were compressed
 * once, each on its own (no back-reference crosses a cut), and flushed to a byte boundary, so the
 * nonce can sit between them as a stored (uncompressed) block. Only the checksum is computed per
 * answer. (Brotli offers no such splice: a cached page is sent gzip to browsers that take both.)
 */
export function pageGzip(page: CachedPage, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce, 'utf8');
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(nonceBytes.length, 1);
  stored.writeUInt16LE(~nonceBytes.length & 0xffff, 3);
  const parts: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  page.deflated.forEach((deflated, i) => {
    if (i > 0) {
      parts.push(stored, nonceBytes);
      crc = crc32(nonceBytes, crc);
      size += nonceBytes.length;
    }
    parts.push(deflated);
    crc = crc32(page.pieces[i], crc);
    size += page.pieces[i].length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(LAST_EMPTY_BLOCK, trailer);
  return Buffer.concat(parts);
}

function join(pieces: Buffer[], separator: Buffer): Buffer {
  if (pieces.length === 1) return pieces[0];
  const parts: Buffer[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) parts.push(separator);
    parts.push(piece);
  });
  return Buffer.concat(parts);
}

/**
 * Server-rendered HTML kept in memory with its compressed form, so a repeat visit costs a lookup
 * instead of a render. Entries end at the time their page named, and all of them when the data
 * behind them changes (clear()). The nonce the page was rendered with is cut out: every answer
 * gets its own (decision 170).
 */
export class PageCache {
  private readonly pages = new BoundedMap<CachedPage>({
    maxEntries: PAGE_CACHE_MAX_ENTRIES,
    maxBytes: PAGE_CACHE_MAX_BYTES,
    sizeOf: (p) => [...p.pieces, ...p.deflated].reduce((bytes, b) => bytes + b.length, 0) + 2 * p.etag.length,
  });
  private generationCount = 0;

  /** Changes on every clear(): a render that started before a change must not be kept after it. */
  get generation() {
    return this.generationCount;
  }

  get size() {
    return this.pages.size;
  }

  /** The bytes held (pages and their compressed forms), as counted for the bound. */
  get bytes() {
    return this.pages.bytes;
  }

  /** The cached page of a URL (path and query), if still valid at `now`. */
  get(url: string, now: Date): CachedPage | undefined {
    const page = this.pages.get(url);
    if (!page) return undefined;
    if (page.until <= now.getTime()) {
      this.pages.delete(url);
      return undefined;
    }
    return page;
  }

  /**
   * Keeps a page rendered with script nonce `nonce` until `until`, unless the cache was cleared since
   * `generation` (read before rendering): that page may show data from before the change, so it is
   * sent but not kept. The nonce was drawn for this render, after the content it shows was written,
   * so it occurs in the HTML only where the application put it.
   */
  set(url: string, input: { status: number; html: string; nonce?: string; until: Date; generation?: number }): CachedPage {
    const pieces = (input.nonce ? input.html.split(input.nonce) : [input.html]).map((piece) => Buffer.from(piece, 'utf8'));
    const page: CachedPage = {
      status: input.status,
      pieces,
      deflated: pieces.map((piece) =>
        deflateRawSync(piece, { level: 9, memLevel: 9, finishFlush: zlibConstants.Z_SYNC_FLUSH }),
      ),
      etag: `W/"${createHash('sha1').update(join(pieces, Buffer.from([0]))).digest('base64url').slice(0, 22)}"`,
      until: input.until.getTime(),
    };
    if (input.generation === undefined || input.generation === this.generationCount) this.pages.set(url, page);
    return page;
  }

  clear() {
    this.generationCount++;
    this.pages.clear();
  }
}

/**
 * Sends a cached page with a fresh script nonce in its HTML and its policy, honouring If-None-Match
 * (pages that were found) and Accept-Encoding.
 */
export function sendCachedPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
  reply.status(page.status);
  reply.header('Content-Type', 'text/html; charset=utf-8');
  reply.header('Cache-Control', 'public, max-age=0, must-revalidate');
  reply.header('Vary', 'Accept-Encoding');
  if (page.status === 200) {
    reply.header('ETag', page.etag);
    // No policy on a 304: it would replace the stored one, which names the nonce of the stored body.
    if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  }
  const nonce = newCspNonce();
  reply.header('Content-Security-Policy', pagePolicy(nonce));
  let body: Buffer;
  if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) {
    reply.header('Content-Encoding', 'gzip');
    body = pageGzip(page, nonce);
  } else {
    body = pageHtml(page, nonce);
  }
  reply.header('Content-Length', body.length);
  return reply.send(request.method === 'HEAD' ? undefined : body);
}
