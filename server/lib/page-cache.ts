import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BoundedMap } from './bounded-map.ts';

export { PAGE_CACHE_UNTIL_HEADER } from '../../common/schemas/articles.ts';
// Query strings are the visitor's to choose: the cache keeps at most this many pages and bytes (each
// page with its two compressed forms), dropping the oldest (decision 182).
export const PAGE_CACHE_MAX_ENTRIES = 500;
export const PAGE_CACHE_MAX_BYTES = 16 * 1024 * 1024;

export interface CachedPage {
  status: number;
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
  csp: string;
  until: number;
}

/**
 * Server-rendered HTML kept in memory with its brotli and gzip forms (like the pre-rendered pages),
 * so a repeat visit costs a lookup instead of a render. Entries end at the time their page named,
 * and all of them when the data behind them changes (clear()).
 */
export class PageCache {
  private readonly pages = new BoundedMap<CachedPage>({
    maxEntries: PAGE_CACHE_MAX_ENTRIES,
    maxBytes: PAGE_CACHE_MAX_BYTES,
    sizeOf: (p) => p.body.length + p.br.length + p.gzip.length + 2 * (p.csp.length + p.etag.length),
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
   * Keeps a rendered page until `until`, unless the cache was cleared since `generation` (read before
   * rendering): that page may show data from before the change, so it is sent but not kept.
   */
  set(url: string, input: { status: number; html: string; csp: string; until: Date; generation?: number }): CachedPage {
    const body = Buffer.from(input.html, 'utf8');
    const page: CachedPage = {
      status: input.status,
      body,
      br: brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
      gzip: gzipSync(body, { level: 9 }),
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
      csp: input.csp,
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

/** Sends a cached page, honouring If-None-Match (pages that were found) and Accept-Encoding. */
export function sendCachedPage(request: FastifyRequest, reply: FastifyReply, page: CachedPage) {
  reply.status(page.status);
  reply.header('Content-Type', 'text/html; charset=utf-8');
  reply.header('Content-Security-Policy', page.csp);
  reply.header('Cache-Control', 'public, max-age=0, must-revalidate');
  reply.header('Vary', 'Accept-Encoding');
  if (page.status === 200) {
    reply.header('ETag', page.etag);
    if (request.headers['if-none-match'] === page.etag) return reply.status(304).send();
  }
  const accepts = String(request.headers['accept-encoding'] ?? '');
  let body = page.body;
  if (/\bbr\b/.test(accepts)) {
    reply.header('Content-Encoding', 'br');
    body = page.br;
  } else if (/\bgzip\b/.test(accepts)) {
    reply.header('Content-Encoding', 'gzip');
    body = page.gzip;
  }
  reply.header('Content-Length', body.length);
  return reply.send(request.method === 'HEAD' ? undefined : body);
}
