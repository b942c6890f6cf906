import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { startWebTestApp } from '../../tests/helpers/test-app.ts';
import { compressStaticFiles } from '../../scripts/compress-static.ts';

// Static files of the client build are compressed at build time (scripts/compress-static.ts) and
// served as they are: brotli or gzip by Accept-Encoding, one ETag, 304 on a match (decision 155).

const STAND_IN_SERVER =
  "export const routes = {}; export const entry = { module: {} }; export const assets = { routes: {}, entry: { module: '', imports: [] }, url: '', version: '1' }; export const future = {}; export const publicPath = '/'; export const assetsBuildDirectory = ''; export const ssr = true; export const isSpaMode = false; export const prerender = [];\n";

// Text that compresses well but is not trivial: numbered lines of a script.
const SCRIPT = Array.from({ length: 400 }, (_, i) => `export const value${i} = ${i} * 2; // line ${i}`).join('\n');
const PAGE = `<!DOCTYPE html><html lang="en"><head><title>About</title></head><body>${'<p>About the company.</p>'.repeat(80)}</body></html>`;

function makeBuild(compressed: boolean) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'static-files-build-'));
  mkdirSync(path.join(dir, 'server'), { recursive: true });
  mkdirSync(path.join(dir, 'client', 'assets'), { recursive: true });
  mkdirSync(path.join(dir, 'client', 'about'), { recursive: true });
  writeFileSync(path.join(dir, 'server', 'index.js'), STAND_IN_SERVER);
  writeFileSync(path.join(dir, 'client', 'assets', 'entry-Ab12Cd.js'), SCRIPT);
  writeFileSync(path.join(dir, 'client', 'about', 'index.html'), PAGE);
  writeFileSync(path.join(dir, 'client', 'tiny.txt'), 'small');
  return { dir, ready: compressed ? compressStaticFiles(path.join(dir, 'client')) : Promise.resolve(0) };
}

describe('a build compressed at build time', () => {
  let build: ReturnType<typeof makeBuild>;
  let app: App;
  let database: { close(): Promise<void> } | undefined;
  beforeAll(async () => {
    build = makeBuild(true);
    expect(await build.ready).toBe(2);
    // The web plugin reads BUILD_DIR when it is first imported: one build per test file.
    process.env.BUILD_DIR = build.dir;
    const started = await startWebTestApp(build.dir);
    app = started.app as App;
    database = started;
  });
  afterAll(async () => {
    await database?.close();
    rmSync(build.dir, { recursive: true, force: true });
  });

  it('writes brotli and gzip forms beside the files that gain from them, not beside small ones', () => {
    expect(readdirSync(path.join(build.dir, 'client', 'assets')).sort()).toEqual(['entry-Ab12Cd.js', 'entry-Ab12Cd.js.br', 'entry-Ab12Cd.js.gz']);
    expect(readdirSync(path.join(build.dir, 'client')).filter((f) => f.startsWith('tiny'))).toEqual(['tiny.txt']);
  });

  it('serves a hashed asset as brotli with Vary, an ETag and a year of immutable caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/entry-Ab12Cd.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(SCRIPT);
  });

  it('serves gzip to a client without brotli, and the original to one that accepts neither, under the same ETag', async () => {
    const gz = await app.inject({ method: 'GET', url: '/assets/entry-Ab12Cd.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await app.inject({ method: 'GET', url: '/assets/entry-Ab12Cd.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gz.headers.etag).toBe(plain.headers.etag);
  });

  it('answers 304 with no body to a matching If-None-Match, and the file to a stale one', async () => {
    const first = await app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'br' } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(first.headers['content-security-policy']).toBeTruthy();
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe(PAGE);
    const again = await app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    const stale = await app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'br', 'if-none-match': '"not-the-current-one"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('sends a content page without Cross-Origin-Opener-Policy, and every other answer with same-origin (decision 143)', async () => {
    const about = await app.inject({ method: 'GET', url: '/about' });
    expect(about.statusCode).toBe(200);
    expect(about.headers['cross-origin-opener-policy']).toBeUndefined();
    // The rest of the security headers stay on the content page.
    expect(about.headers['x-frame-options']).toBe('DENY');
    expect(about.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const revalidated = await app.inject({ method: 'GET', url: '/about', headers: { 'if-none-match': String(about.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['cross-origin-opener-policy']).toBeUndefined();
    for (const url of ['/assets/entry-Ab12Cd.js', '/api/health', '/no-such-page']) {
      expect((await app.inject({ method: 'GET', url })).headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
  });

  it('sends a small file as it is, without Vary', async () => {
    const res = await app.inject({ method: 'GET', url: '/tiny.txt', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('small');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
  });

  it('never serves a compressed form under its own name as a file', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/entry-Ab12Cd.js.br', headers: { 'accept-encoding': 'identity' } });
    expect(res.headers['content-type'] ?? '').not.toBe('application/octet-stream');
    expect(res.headers['cache-control']).not.toBe('public, max-age=31536000, immutable');
  });
});
