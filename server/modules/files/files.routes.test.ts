import { storedFiles as filesUnder } from '../../../tests/helpers/uploads.ts';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { sampleMp4, samplePdf, samplePng } from '../../../tests/helpers/sample-files.ts';
import { projects } from '../../db/schema/projects.ts';
import { MESSAGE_ATTACHMENT_MAX_BYTES } from '../../../common/schemas/messages.ts';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSON_UPLOADS_IN_FLIGHT_MAX, UPLOAD_RATE_LIMIT } from '../messages/messages.routes.ts';

const ORIGIN = 'http://localhost:3000';

let t: TestApp;
let clientAuth: { cookie: string };
let otherAuth: { cookie: string };
let adminAuth: { cookie: string };
let projectId: string;

/** Every file under the uploads folder (folders alone do not count: they hold no bytes). */
const storedFiles = () => filesUnder(t.uploadsDir);

function uploadMultipart(
  auth: { cookie: string },
  file: { name: string; type: string; data: Buffer },
  options: { fields?: Record<string, string>; truncateBy?: number } = {},
) {
  const { payload, headers } = multipartBody(options.fields ?? {}, { filename: file.name, contentType: file.type, data: file.data }, options);
  return t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...headers, cookie: auth.cookie, origin: ORIGIN }, payload });
}

function uploadJson(auth: { cookie: string }, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { cookie: auth.cookie, origin: ORIGIN }, payload: body });
}

/** The app over real HTTP (slow senders cannot be made with inject), listening once per file. */
async function listeningPort(): Promise<number> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

const get = (auth: { cookie: string }, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { cookie: auth.cookie, ...headers } });

beforeAll(async () => {
  t = await createTestApp();
  const client = await createUser(t, { role: 'client' });
  const other = await createUser(t, { role: 'client' });
  const admin = await createUser(t, { role: 'admin' });
  clientAuth = await signIn(t, client, 'client');
  otherAuth = await signIn(t, other, 'client');
  adminAuth = await signIn(t, admin, 'admin');
  const [p] = await t.database.db.insert(projects).values({ clientId: client.id, name: 'Files project', code: 'FILES-1', createdAt: t.clock.now() }).returning();
  projectId = p.id;
});

afterAll(async () => {
  await t?.close();
});

describe('uploading attachments', () => {
  it("stores a multipart upload under a server-generated name and answers the specification's shape", async () => {
    const png = await samplePng();
    const res = await uploadMultipart(clientAuth, { name: 'Jetty – north side.png', type: 'image/png', data: png });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      file: {
        url: `/api/files/${body.file.publicId}`,
        publicId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'image',
        name: 'Jetty – north side.png',
        mimeType: 'image/png',
        size: png.length,
      },
    });
    // The name is data only: nothing on disk carries it.
    expect(storedFiles().some((f) => f.includes('Jetty'))).toBe(false);
    expect(storedFiles()).toContain(path.join('messages', body.file.publicId.slice(0, 2), body.file.publicId));
  });

  it("accepts the specification's JSON shape with the file as base64, plain or as a data URL", async () => {
    const pdf = samplePdf();
    const plain = await uploadJson(clientAuth, { file: pdf.toString('base64'), type: 'document', name: 'drawing.pdf', mimeType: 'application/pdf' });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().file).toMatchObject({ type: 'document', name: 'drawing.pdf', mimeType: 'application/pdf' });
    const dataUrl = await uploadJson(clientAuth, { file: `data:image/png;base64,${(await samplePng()).toString('base64')}`, name: 'photo.png' });
    expect(dataUrl.statusCode).toBe(201);
    expect(dataUrl.json().file).toMatchObject({ type: 'image', mimeType: 'image/png' });
  });

  it('accepts a file of exactly 50 MB, streamed', async () => {
    const before = storedFiles().length;
    const res = await uploadMultipart(clientAuth, { name: 'walkthrough.mp4', type: 'video/mp4', data: sampleMp4(MESSAGE_ATTACHMENT_MAX_BYTES) });
    expect(res.statusCode).toBe(201);
    expect(res.json().file).toMatchObject({ type: 'video', size: MESSAGE_ATTACHMENT_MAX_BYTES });
    expect(storedFiles().length).toBe(before + 1);
  });

  describe('refuses every bad upload with 4xx and leaves nothing on disk', () => {
    let before: string[];
    beforeAll(() => {
      before = storedFiles();
    });
    const expectNothingNew = () => expect(storedFiles()).toEqual(before);

    it('refuses bytes that are not the declared type', async () => {
      const res = await uploadMultipart(clientAuth, { name: 'photo.png', type: 'image/png', data: samplePdf() });
      expect(res.statusCode).toBe(415);
      expect(res.json()).toMatchObject({ success: false, message: 'photo.png has an unsupported file type' });
      const json = await uploadJson(clientAuth, { file: samplePdf().toString('base64'), name: 'photo.png', mimeType: 'image/png' });
      expect(json.statusCode).toBe(415);
      expectNothingNew();
    });

    it('refuses bytes of a type that is not allowed, whatever the declared type', async () => {
      const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300, 0x90)]);
      const res = await uploadMultipart(clientAuth, { name: 'report.pdf', type: 'application/pdf', data: exe });
      expect(res.statusCode).toBe(415);
      const html = await uploadMultipart(clientAuth, { name: 'page.html', type: 'text/html', data: Buffer.from('<script>alert(1)</script>') });
      expect(html.statusCode).toBe(415);
      expectNothingNew();
    });

    it('refuses a file one byte over 50 MB, multipart or JSON', async () => {
      const res = await uploadMultipart(clientAuth, { name: 'big.mp4', type: 'video/mp4', data: sampleMp4(MESSAGE_ATTACHMENT_MAX_BYTES + 1) });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toBe('big.mp4 exceeds the 50MB size limit');
      expectNothingNew();
      const json = await uploadJson(clientAuth, { file: sampleMp4(MESSAGE_ATTACHMENT_MAX_BYTES + 1).toString('base64'), name: 'big.mp4', mimeType: 'video/mp4' });
      expect(json.statusCode).toBe(413);
      expectNothingNew();
    });

    it('refuses a name with path characters', async () => {
      const png = await samplePng();
      for (const name of ['../../etc/passwd.png', 'a/b.png', 'C:\\temp\\x.png']) {
        const json = await uploadJson(clientAuth, { file: png.toString('base64'), name, mimeType: 'image/png' });
        expect(json.statusCode, name).toBe(400);
      }
      const multipart = await uploadMultipart(clientAuth, { name: 'ok.png', type: 'image/png', data: png }, { fields: { name: '../x.png' } });
      expect(multipart.statusCode).toBe(400);
      expectNothingNew();
    });

    it('refuses a truncated multipart body', async () => {
      const res = await uploadMultipart(clientAuth, { name: 'cut.mp4', type: 'video/mp4', data: sampleMp4(256 * 1024) }, { truncateBy: 100 * 1024 });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expectNothingNew();
    });

    it('refuses an empty file, a body that is not base64 and a missing file', async () => {
      expect((await uploadMultipart(clientAuth, { name: 'empty.txt', type: 'text/plain', data: Buffer.alloc(0) })).statusCode).toBe(400);
      expect((await uploadJson(clientAuth, { file: '<<not base64>>', name: 'x.png' })).statusCode).toBe(400);
      expect((await uploadJson(clientAuth, { name: 'x.png' })).statusCode).toBe(400);
      expectNothingNew();
    });
  });

  it('limits how many files one user uploads per hour, and lets them go on in the next hour', async () => {
    const heavy = await createUser(t, { role: 'client' });
    const auth = await signIn(t, heavy, 'client');
    const png = (await samplePng(2, 2)).toString('base64');
    const one = () => uploadJson(auth, { file: png, name: 'dot.png', mimeType: 'image/png' });
    // Start at the beginning of an hour window, so the whole run falls into one.
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / UPLOAD_RATE_LIMIT.windowMs) * UPLOAD_RATE_LIMIT.windowMs));
    for (let i = 0; i < UPLOAD_RATE_LIMIT.limit; i++) expect((await one()).statusCode).toBe(201);
    const refused = await one();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/^Too many uploads\. Please try again in/);
    expect(refused.headers['retry-after']).toBeDefined();
    t.clock.advance(UPLOAD_RATE_LIMIT.windowMs);
    expect((await one()).statusCode).toBe(201);
  });

  it('reads only a few base64 JSON uploads at a time and asks the next one to retry, before reading its body', async () => {
    const body = JSON.stringify({ file: (await samplePng()).toString('base64'), name: 'slow.png', mimeType: 'image/png' });
    const port = await listeningPort();
    // Slow senders over real HTTP: the headers and the first bytes arrive, the rest waits. One more
    // than allowed: whichever of them comes last is refused at once, without its body being read.
    const slow = Array.from({ length: JSON_UPLOADS_IN_FLIGHT_MAX + 1 }, () => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/messages/upload',
        headers: { cookie: clientAuth.cookie, origin: ORIGIN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const answered = new Promise<{ status: number; body: string; retryAfter?: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, retryAfter: res.headers['retry-after'] as string | undefined }));
        });
        req.on('error', reject);
      });
      req.write(body.slice(0, 10));
      return { req, answered };
    });
    const first = await Promise.race(slow.map((s) => s.answered));
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body).message).toBe('The server is busy with other uploads. Please try again in a moment.');
    expect(first.retryAfter).toBe('5');
    for (const { req } of slow) req.end(body.slice(10));
    const statuses = await Promise.all(slow.map((s) => s.answered.then((a) => a.status, () => 503)));
    expect(statuses.sort()).toEqual([...Array<number>(JSON_UPLOADS_IN_FLIGHT_MAX).fill(201), 503]);
    // Once they are done, the next one is read again.
    expect((await uploadJson(clientAuth, JSON.parse(body))).statusCode).toBe(201);
  });

  it('never refuses multipart uploads for the base64 limit: they stream, however many are in flight', async () => {
    const port = await listeningPort();
    const { payload, headers } = multipartBody({}, { filename: 'held.png', contentType: 'image/png', data: await samplePng() });
    // More slow multipart senders than the base64 slots: headers and the start of the body, then a pause.
    const held = Array.from({ length: JSON_UPLOADS_IN_FLIGHT_MAX + 2 }, () => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/messages/upload',
        headers: { ...headers, cookie: clientAuth.cookie, origin: ORIGIN, 'content-length': payload.length },
      });
      const answered = new Promise<number>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
      });
      req.write(payload.subarray(0, 200));
      return { req, answered };
    });
    // While they are all held open, the base64 slots are still free.
    const png = (await samplePng(2, 2)).toString('base64');
    expect((await uploadJson(clientAuth, { file: png, name: 'while-held.png', mimeType: 'image/png' })).statusCode).toBe(201);
    for (const { req } of held) req.end(payload.subarray(200));
    const statuses = await Promise.all(held.map((h) => h.answered));
    expect(statuses).toEqual(Array<number>(JSON_UPLOADS_IN_FLIGHT_MAX + 2).fill(201));
  });

  it('refuses an upload without a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { origin: ORIGIN }, payload: { file: 'AAAA' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('serving attachments', () => {
  it('serves an unsent upload only to its uploader; staff and other clients get 404', async () => {
    const file = (await uploadMultipart(clientAuth, { name: 'draft.png', type: 'image/png', data: await samplePng() })).json().file;
    expect((await get(clientAuth, file.url)).statusCode).toBe(200);
    expect((await get(adminAuth, file.url)).statusCode).toBe(404);
    const foreign = await get(otherAuth, file.url);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual((await get(otherAuth, '/api/files/00000000-0000-4000-8000-000000000000')).json());
  });

  it('sends the headers that keep a file a file: disposition, nosniff, private long-lived caching', async () => {
    const png = (await uploadJson(clientAuth, { file: (await samplePng()).toString('base64'), name: 'Résumé "final".png', mimeType: 'image/png' })).json().file;
    const pdf = (await uploadMultipart(clientAuth, { name: 'spec.pdf', type: 'application/pdf', data: samplePdf() })).json().file;
    const image = await get(clientAuth, png.url);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBe(`inline; filename="R_sum_ final.png"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final.png`);
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    // Not kept in the browser cache past sign-out on a shared computer (decision 114, issue 16).
    expect(image.headers['cache-control']).toBe('private, no-store');
    expect(image.headers['content-encoding']).toBeUndefined();
    const download = await get(clientAuth, `${png.url}?download=1`);
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
    const document = await get(clientAuth, pdf.url);
    expect(document.headers['content-disposition']).toMatch(/^attachment; filename="spec.pdf"/);
    expect(document.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const notModified = await get(clientAuth, png.url, { 'if-none-match': image.headers.etag as string });
    expect(notModified.statusCode).toBe(304);
  });

  it('answers byte ranges, as video players ask for them', async () => {
    const data = sampleMp4(100_000);
    const video = (await uploadMultipart(clientAuth, { name: 'clip.mp4', type: 'video/mp4', data })).json().file;
    const start = await get(clientAuth, video.url, { range: 'bytes=0-1023' });
    expect(start.statusCode).toBe(206);
    expect(start.headers['content-range']).toBe(`bytes 0-1023/${data.length}`);
    expect(start.headers['accept-ranges']).toBe('bytes');
    expect(start.rawPayload.equals(data.subarray(0, 1024))).toBe(true);
    const open = await get(clientAuth, video.url, { range: 'bytes=99000-' });
    expect(open.rawPayload.equals(data.subarray(99_000))).toBe(true);
    const suffix = await get(clientAuth, video.url, { range: 'bytes=-10' });
    expect(suffix.rawPayload.equals(data.subarray(data.length - 10))).toBe(true);
    const outside = await get(clientAuth, video.url, { range: 'bytes=200000-' });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${data.length}`);
  });

  it('serves a sent attachment to the project client and staff, still not to another client', async () => {
    const file = (await uploadMultipart(clientAuth, { name: 'sent.png', type: 'image/png', data: await samplePng() })).json().file;
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      headers: { cookie: clientAuth.cookie, origin: ORIGIN },
      payload: { text: 'See attached', projectId, attachments: [file] },
    });
    expect(sent.statusCode).toBe(201);
    expect((await get(adminAuth, file.url)).statusCode).toBe(200);
    expect((await get(clientAuth, file.url)).statusCode).toBe(200);
    expect((await get(otherAuth, file.url)).statusCode).toBe(404);
  });

  it('removes uploads never sent after a day, rows and bytes', async () => {
    const stale = (await uploadMultipart(otherAuth, { name: 'forgotten.png', type: 'image/png', data: await samplePng() })).json().file;
    const key = path.join('messages', stale.publicId.slice(0, 2), stale.publicId);
    expect(storedFiles()).toContain(key);
    t.clock.advance(25 * 60 * 60_000);
    // The sweep runs beside the next upload.
    await uploadMultipart(clientAuth, { name: 'next.png', type: 'image/png', data: await samplePng() });
    await expect.poll(() => storedFiles().includes(key)).toBe(false);
    expect((await get(otherAuth, stale.url)).statusCode).toBe(404);
  });
});
