import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { prerenderedPagePolicy } from './security-headers.ts';

// Hashed file names never change content, so browsers may keep them for a year.
const IMMUTABLE = 'public, max-age=31536000, immutable';
// Pre-rendered pages change on deploy; browsers revalidate (a cheap 304 with the ETag).
const REVALIDATE = 'public, max-age=0, must-revalidate';
const OTHER = 'public, max-age=3600';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.data': 'text/x-script; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.pdf': 'application/pdf',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.json', '.data', '.svg', '.xml', '.txt', '.webmanifest']);
const COMPRESS_MIN_BYTES = 512;

export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  /** No compressed forms on disk (a build without scripts/compress-static.ts): made on first request. */
  compressLater?: boolean;
  type: string;
  etag: string;
  cacheControl: string;
  csp?: string;
  /** A file of the build not read yet: its path on disk (read by its first request, decision 301). */
  source?: string;
}

function walk(root: string, dir = root, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(root, full, out);
    else out.push(full);
  }
  return out;
}

function readIfPresent(file: string): Buffer | undefined {
  return existsSync(file) ? readFileSync(file) : undefined;
}

const NOT_READ = Buffer.alloc(0);

/**
 * The files of the client build, kept in memory with the brotli and gzip forms that the build wrote
 * beside them (`name.br`, `name.gz`, scripts/compress-static.ts), so each request is a lookup: no disk
 * access and no compression work per request (docs/decisions/155). Each is read by the first request
 * that asks for it, not at start (decision 301): a process holds the files its visitors use.
 */
export function loadStaticFiles(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const all = walk(clientDir);
  const present = new Set(all);
  for (const full of all) {
    const ext = path.extname(full).toLowerCase();
    // A compressed form is served in place of its original, never under its own name.
    if ((ext === '.br' || ext === '.gz') && present.has(full.slice(0, -ext.length))) continue;
    const url = '/' + path.relative(clientDir, full).split(path.sep).join('/');
    files.set(url, {
      body: NOT_READ,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: '',
      cacheControl: url.startsWith('/assets/') ? IMMUTABLE : ext === '.html' || ext === '.data' ? REVALIDATE : OTHER,
      source: full,
    });
  }
  return files;
}

/** Reads a file of the build with its compressed forms, its ETag and (a page) its policy, once. */
function readStaticFile(file: StaticFile, full: string) {
  const ext = path.extname(full).toLowerCase();
  const body = readFileSync(full);
  file.body = body;
  file.etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
  if (COMPRESSIBLE.has(ext) && body.length > COMPRESS_MIN_BYTES) {
    file.br = readIfPresent(`${full}.br`);
    file.gzip = readIfPresent(`${full}.gz`);
    // A build made by `react-router build` alone has none: compressed when first asked for.
    if (!file.br && !file.gzip) file.compressLater = true;
  }
  // Pre-rendered pages: built from our own code and content, no nonce; their scripts are hashed (decision 170).
  if (ext === '.html') file.csp = prerenderedPagePolicy(body.toString('utf8'));
  file.source = undefined;
}

function compressNow(file: StaticFile) {
  file.compressLater = false;
  const br = brotliCompressSync(file.body, {
    params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: file.body.length },
  });
  const gzip = gzipSync(file.body, { level: 9 });
  if (br.length < file.body.length) file.br = br;
  if (gzip.length < file.body.length) file.gzip = gzip;
}

/** The file a URL path names: an exact asset, or the pre-rendered index.html of a page. */
export function findStaticFile(files: Map<string, StaticFile>, urlPath: string): StaticFile | undefined {
  const file = (!urlPath.endsWith('.html') && files.get(urlPath)) || files.get(urlPath === '/' ? '/index.html' : `${urlPath.replace(/\/$/, '')}/index.html`);
  if (file?.source) readStaticFile(file, file.source);
  return file;
}

/** Sends a static file, honouring If-None-Match and Accept-Encoding. */
export function sendStaticFile(request: FastifyRequest, reply: FastifyReply, file: StaticFile) {
  reply.header('Content-Type', file.type);
  reply.header('Cache-Control', file.cacheControl);
  reply.header('ETag', file.etag);
  if (file.csp) reply.header('Content-Security-Policy', file.csp);
  if (file.compressLater) compressNow(file);
  if (file.br || file.gzip) reply.header('Vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  const accepts = String(request.headers['accept-encoding'] ?? '');
  let body = file.body;
  if (file.br && /\bbr\b/.test(accepts)) {
    reply.header('Content-Encoding', 'br');
    body = file.br;
  } else if (file.gzip && /\bgzip\b/.test(accepts)) {
    reply.header('Content-Encoding', 'gzip');
    body = file.gzip;
  }
  reply.header('Content-Length', body.length);
  return reply.send(request.method === 'HEAD' ? undefined : body);
}
