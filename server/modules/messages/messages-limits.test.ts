import { startOfNextWindow as nextWindow } from '../../../tests/helpers/fake-clock.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';
import { storedFiles as filesUnder } from '../../../tests/helpers/uploads.ts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePdf, samplePng } from '../../../tests/helpers/sample-files.ts';
import { rateLimitCounters } from '../../db/schema/form-guard.ts';
import { messageFiles, messages } from '../../db/schema/messages.ts';
import { MESSAGE_RATE_LIMITS, RATE_LIMIT_TEXTS, UPLOAD_BYTES_RATE_LIMIT, UPLOAD_RATE_LIMIT } from './messages.routes.ts';
import { clientWithProject, type Actor } from '../../../tests/helpers/portal.ts';

const ORIGIN = 'http://localhost:3000';
const [PER_MINUTE, PER_HOUR] = MESSAGE_RATE_LIMITS;

let t: TestApp;
let admin: Actor;
let adminAuth: { cookie: string };

const person = () => clientWithProject(t, 'Limits');

const send = (auth: { cookie: string }, projectId: string, text = 'Progress on site') =>
  t.app.inject({ method: 'POST', url: '/api/messages', headers: { cookie: auth.cookie, origin: ORIGIN }, payload: { text, projectId } });

function uploadMultipart(auth: { cookie: string }, file: { name: string; type: string; data: Buffer }) {
  const { payload, headers } = multipartBody({}, { filename: file.name, contentType: file.type, data: file.data });
  return t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...headers, cookie: auth.cookie, origin: ORIGIN }, payload });
}

const uploadJson = (auth: { cookie: string }, data: Buffer, name = 'photo.png', mimeType = 'image/png') =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/upload',
    headers: { cookie: auth.cookie, origin: ORIGIN },
    payload: { file: data.toString('base64'), type: 'image', name, mimeType },
  });

const startOfNextWindow = (windowMs: number) => nextWindow(t.clock, windowMs);

const messageCount = async (projectId: string) =>
  (await t.database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(messages).where(eq(messages.projectId, projectId)))[0].n;

const fileRows = async (uploaderId: string) =>
  (await t.database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(messageFiles).where(eq(messageFiles.uploaderId, uploaderId)))[0].n;

/** Every file under the uploads folder. */
const storedFiles = () => filesUnder(t.uploadsDir);

/** The KiB this user has used of the byte budget in the current hour. */
async function bytesUsedKib(userId: string): Promise<number> {
  const windowStart = new Date(Math.floor(t.clock.now().getTime() / UPLOAD_BYTES_RATE_LIMIT.windowMs) * UPLOAD_BYTES_RATE_LIMIT.windowMs);
  const [row] = await t.database.db
    .select({ count: rateLimitCounters.count })
    .from(rateLimitCounters)
    .where(and(eq(rateLimitCounters.key, `${UPLOAD_BYTES_RATE_LIMIT.bucket}:${userId}`), eq(rateLimitCounters.windowStart, windowStart)));
  return row?.count ?? 0;
}

/** As if the user had already uploaded this much in the current hour (a counter row in the current window). */
async function alreadyUploadedKib(userId: string, kib: number) {
  const { windowMs, bucket } = UPLOAD_BYTES_RATE_LIMIT;
  const windowStart = Math.floor(t.clock.now().getTime() / windowMs) * windowMs;
  await t.database.db
    .insert(rateLimitCounters)
    .values({ key: `${bucket}:${userId}`, windowStart: new Date(windowStart), count: kib, expiresAt: new Date(windowStart + windowMs) });
}

beforeAll(async () => {
  ({ t, admin } = await appWithAdmin());
  adminAuth = admin.headers;
});
afterAll(() => t?.close());

describe('sending limits', () => {
  it('refuses the 31st message in a minute with 429, Retry-After and when to try again, storing nothing; the next minute it works', async () => {
    const amaka = await person();
    startOfNextWindow(PER_MINUTE.windowMs);
    for (let i = 0; i < PER_MINUTE.limit; i++) {
      t.clock.advance(100);
      expect((await send(amaka.auth, amaka.projectId, `Note ${i}`)).statusCode).toBe(201);
    }
    const refused = await send(amaka.auth, amaka.projectId, 'One too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, code: 'RATE_LIMITED', message: RATE_LIMIT_TEXTS.messages('a minute') });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await messageCount(amaka.projectId)).toBe(PER_MINUTE.limit);

    // Someone else, client or staff, is not slowed by Amaka's limit.
    const bola = await person();
    expect((await send(bola.auth, bola.projectId)).statusCode).toBe(201);
    expect((await send(adminAuth, amaka.projectId, 'Staff answer')).statusCode).toBe(201);

    startOfNextWindow(PER_MINUTE.windowMs);
    expect((await send(amaka.auth, amaka.projectId, 'Next minute')).statusCode).toBe(201);
    expect(await messageCount(amaka.projectId)).toBe(PER_MINUTE.limit + 2);
  });

  it('refuses the 121st message in an hour even at a pace under the minute limit, until the next hour', async () => {
    const chidi = await person();
    startOfNextWindow(PER_HOUR.windowMs);
    const perMinute = PER_MINUTE.limit;
    for (let i = 0; i < PER_HOUR.limit; i++) {
      if (i > 0 && i % perMinute === 0) t.clock.advance(PER_MINUTE.windowMs);
      expect((await send(chidi.auth, chidi.projectId, `Update ${i}`)).statusCode, `message ${i + 1}`).toBe(201);
    }
    t.clock.advance(PER_MINUTE.windowMs);
    const refused = await send(chidi.auth, chidi.projectId, 'Over the hour');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    // Four minutes into the hour, 56 are left: the message says so, the header in seconds.
    expect(refused.json().message).toBe(RATE_LIMIT_TEXTS.messages('56 minutes'));
    expect(Number(refused.headers['retry-after'])).toBe(56 * 60);
    expect(await messageCount(chidi.projectId)).toBe(PER_HOUR.limit);

    startOfNextWindow(PER_HOUR.windowMs);
    expect((await send(chidi.auth, chidi.projectId, 'A new hour')).statusCode).toBe(201);
  });
});

describe('upload limits', () => {
  it('refuses the 121st upload in an hour before reading it: 429, no row, no bytes on disk; the next hour it works', async () => {
    const dayo = await person();
    const png = await samplePng(2, 2);
    startOfNextWindow(UPLOAD_RATE_LIMIT.windowMs);
    for (let i = 0; i < UPLOAD_RATE_LIMIT.limit; i++) {
      const res = i % 2 ? await uploadJson(dayo.auth, png) : await uploadMultipart(dayo.auth, { name: `dot-${i}.png`, type: 'image/png', data: png });
      expect(res.statusCode, `upload ${i + 1}`).toBe(201);
    }
    const files = storedFiles();
    const rows = await fileRows(dayo.id);
    for (const refused of [
      await uploadMultipart(dayo.auth, { name: 'one-more.png', type: 'image/png', data: png }),
      await uploadJson(dayo.auth, png, 'one-more.png'),
    ]) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', message: RATE_LIMIT_TEXTS.uploads('60 minutes') });
      expect(refused.headers['retry-after']).toBe(String(60 * 60));
    }
    expect(storedFiles()).toEqual(files);
    expect(await fileRows(dayo.id)).toBe(rows);

    // Another user uploads as usual.
    const ese = await person();
    expect((await uploadMultipart(ese.auth, { name: 'mine.png', type: 'image/png', data: png })).statusCode).toBe(201);

    startOfNextWindow(UPLOAD_RATE_LIMIT.windowMs);
    expect((await uploadMultipart(dayo.auth, { name: 'later.png', type: 'image/png', data: png })).statusCode).toBe(201);
  });

  it('counts the bytes stored, not the size declared, and gives back what a refused upload reserved', async () => {
    const femi = await person();
    startOfNextWindow(UPLOAD_BYTES_RATE_LIMIT.windowMs);
    const pdf = samplePdf('x'.repeat(5000));
    expect((await uploadMultipart(femi.auth, { name: 'report.pdf', type: 'application/pdf', data: pdf })).statusCode).toBe(201);
    expect(await bytesUsedKib(femi.id)).toBe(Math.ceil(pdf.length / 1024));
    // Bytes that are not an allowed type are refused after being read: nothing stored, nothing counted.
    const bad = await uploadMultipart(femi.auth, { name: 'tool.png', type: 'image/png', data: Buffer.from('MZ not an image at all') });
    expect(bad.statusCode).toBe(415);
    expect(await bytesUsedKib(femi.id)).toBe(Math.ceil(pdf.length / 1024));
  });

  it('refuses the upload that would pass 500 MB in the hour with 429 and when to try again, leaving nothing behind; the next hour it works', async () => {
    const gozie = await person();
    startOfNextWindow(UPLOAD_BYTES_RATE_LIMIT.windowMs);
    t.clock.advance(20 * 60_000);
    const png = await samplePng(2, 2);
    // 1 KiB short of the budget: a small file (one KiB counted) still fits, exactly up to the limit.
    await alreadyUploadedKib(gozie.id, UPLOAD_BYTES_RATE_LIMIT.limit - 1);
    expect((await uploadJson(gozie.auth, png)).statusCode).toBe(201);
    expect(await bytesUsedKib(gozie.id)).toBe(UPLOAD_BYTES_RATE_LIMIT.limit);

    const files = storedFiles();
    const rows = await fileRows(gozie.id);
    for (const refused of [await uploadJson(gozie.auth, png), await uploadMultipart(gozie.auth, { name: 'more.png', type: 'image/png', data: png })]) {
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ success: false, code: 'RATE_LIMITED', message: RATE_LIMIT_TEXTS.uploadBytes('40 minutes') });
      expect(refused.headers['retry-after']).toBe(String(40 * 60));
    }
    expect(storedFiles()).toEqual(files);
    expect(await fileRows(gozie.id)).toBe(rows);
    // A refusal takes nothing from the budget.
    expect(await bytesUsedKib(gozie.id)).toBe(UPLOAD_BYTES_RATE_LIMIT.limit);

    // Someone else is not affected.
    const other = await person();
    expect((await uploadJson(other.auth, png)).statusCode).toBe(201);

    startOfNextWindow(UPLOAD_BYTES_RATE_LIMIT.windowMs);
    expect((await uploadJson(gozie.auth, png)).statusCode).toBe(201);
  });
});
