import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_MAX_BYTES } from '../../../common/schemas/documents.ts';
import { documentVersions } from '../../db/schema/documents.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { storedFiles } from '../../../tests/helpers/uploads.ts';

let t: TestApp;
let admin: Actor;
let project: { _id: string };
let origin: string;

beforeAll(async () => {
  ({ t, admin, project } = await appWithProject('Lekki bridge'));
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

const CHUNK = 256 * 1024;
const PDF_HEAD = Buffer.from('%PDF-1.7\n% a large drawing set\n');

/** The bytes of a `size`-byte PDF-looking file, generated chunk by chunk (never held whole) and hashed as they go. */
function* pdfOfSize(size: number, hash: ReturnType<typeof createHash>): Generator<Buffer> {
  const filler = Buffer.alloc(CHUNK, 0x20);
  let sent = 0;
  while (sent < size) {
    const n = Math.min(CHUNK, size - sent);
    const chunk = sent === 0 ? Buffer.concat([PDF_HEAD, filler.subarray(0, n - PDF_HEAD.length)]) : filler.subarray(0, n);
    hash.update(chunk);
    sent += n;
    yield chunk;
  }
}

interface Outcome {
  status: number;
  body: string;
  sha256: string;
  /** The server's (this process's) resident memory: before, and the highest seen while the upload ran. */
  rss: { before: number; peak: number };
}

/**
 * Streams a multipart upload of a `size`-byte file to the listening server over HTTP, sampling
 * this process's RSS (the server's) every 20 ms while it runs.
 */
async function streamUpload(size: number): Promise<Outcome> {
  const boundary = `----docs${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nFull drawing set\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\ndrawing\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="set.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(`${origin}/api/projects/${project._id}/documents`, {
        method: 'POST',
        headers: { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      // The server may answer (413) and close before the whole body is sent.
      req.on('error', (err) => (answered ? undefined : reject(err)));
      let answered = false;
      req.on('response', () => (answered = true));
      const chunks = pdfOfSize(size, hash);
      const pump = () => {
        for (;;) {
          if (answered || req.destroyed) return;
          const next = chunks.next();
          if (next.done) {
            req.end(tail);
            return;
          }
          if (!req.write(next.value)) return void req.once('drain', pump);
        }
      };
      req.write(head);
      pump();
    });
    peak = Math.max(peak, process.memoryUsage().rss);
    return { status, body, sha256: hash.digest('hex'), rss: { before, peak } };
  } finally {
    clearInterval(sampler);
  }
}

const MB = 1024 * 1024;

describe('the 100 MB limit', () => {
  it('keeps a version of exactly 100 MB, hashed while it streamed, with flat server memory', { timeout: 180_000 }, async () => {
    // A small upload first, so the lazily loaded modules and buffers of the first upload are not counted.
    const warmUp = await streamUpload(8 * MB);
    expect(warmUp.status, warmUp.body).toBe(201);
    const outcome = await streamUpload(DOCUMENT_MAX_BYTES);
    expect(outcome.status, outcome.body).toBe(201);
    const current = JSON.parse(outcome.body).document.current;
    expect(current.size).toBe(DOCUMENT_MAX_BYTES);
    expect(current.sha256).toBe(outcome.sha256);
    const growth = (outcome.rss.peak - outcome.rss.before) / MB;
    console.log(`RSS during the 8 MB warm-up: growth ${((warmUp.rss.peak - warmUp.rss.before) / MB).toFixed(1)} MB`);
    console.log(`RSS during a 100 MB upload: ${(outcome.rss.before / MB).toFixed(1)} MB before, peak ${(outcome.rss.peak / MB).toFixed(1)} MB (growth ${growth.toFixed(1)} MB)`);
    // A file held in memory would add its 100 MB; what grows is socket and parser buffers awaiting collection (client and server share this process).
    expect(growth).toBeLessThan(50);
  });

  it('refuses one byte more (413) and stores nothing', { timeout: 180_000 }, async () => {
    const files = storedFiles(t.uploadsDir);
    const rows = await t.database.db.$count(documentVersions);
    const outcome = await streamUpload(DOCUMENT_MAX_BYTES + 1);
    expect(outcome.status, outcome.body).toBe(413);
    expect(JSON.parse(outcome.body)).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    // The partial write is removed as the refusal is answered; give the file system a moment to settle.
    await expect.poll(() => storedFiles(t.uploadsDir), { timeout: 5000 }).toEqual(files);
    expect(await t.database.db.$count(documentVersions)).toBe(rows);
  });
});
