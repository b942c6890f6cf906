import { readdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageFiles } from '../db/schema/messages.ts';
import { reportImages } from '../db/schema/reports.ts';
import { vendorApplications, vendorDocuments } from '../db/schema/vendors.ts';
import { formToken, multipartBody as formBody } from '../../tests/helpers/forms.ts';
import { multipartBody } from '../../tests/helpers/multipart.ts';
import { multipart, type Actor } from '../../tests/helpers/portal.ts';
import type { TestApp } from '../../tests/helpers/test-app.ts';
import { declaredImageSize, IMAGE_TOO_LARGE, PHOTO_LIMIT, VENDOR_IMAGE_LIMIT } from './image-limits.ts';
import { appWithProject } from '../../tests/helpers/actors.ts';

// Decompression bombs (decision 112): a small file declaring a huge image is refused on every upload
// path, judged by its header without decoding it.

/** A real small PNG whose header is rewritten to declare width x height (with a correct checksum). */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer();
  const out = Buffer.from(png);
  // Signature (8), IHDR length (4), 'IHDR' (4), then width and height.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)) >>> 0, 29);
  return out;
}

/** A real small JPEG whose frame header is rewritten to declare width x height. */
async function jpegDeclaring(width: number, height: number): Promise<Buffer> {
  const out = Buffer.from(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#996633' } }).jpeg().toBuffer());
  for (let i = 2; i < out.length - 9; ) {
    const marker = out[i + 1];
    if (marker >= 0xc0 && marker <= 0xc2) {
      out.writeUInt16BE(height, i + 5);
      out.writeUInt16BE(width, i + 7);
      return out;
    }
    i += 2 + out.readUInt16BE(i + 2);
  }
  throw new Error('no frame header');
}

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let pngBomb: Buffer;
let jpegBomb: Buffer;
beforeAll(async () => {
  ({ t, admin, client, project } = await appWithProject('Bombs'));
  pngBomb = await pngDeclaring(50_000, 50_000);
  jpegBomb = await jpegDeclaring(60_000, 60_000);
});
afterAll(() => t?.close());

const noFiles = () => expect(readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toEqual([]);
const rows = async (table: typeof messageFiles | typeof reportImages | typeof vendorApplications | typeof vendorDocuments) =>
  (await t.database.db.select({ n: count() }).from(table))[0].n;

describe('image bombs', () => {
  it('are small files that declare huge images, read from the header only', async () => {
    expect(pngBomb.length).toBeLessThan(1000);
    expect(await declaredImageSize(pngBomb)).toEqual({ width: 50_000, height: 50_000, frames: 1 });
    expect(await declaredImageSize(jpegBomb)).toEqual({ width: 60_000, height: 60_000, frames: 1 });
  });

  it('are refused as message attachments, multipart and base64, keeping nothing', async () => {
    for (const [name, data, contentType, side] of [
      ['plan.png', pngBomb, 'image/png', 50_000],
      ['plan.jpg', jpegBomb, 'image/jpeg', 60_000],
    ] as const) {
      const body = multipartBody({}, { filename: name, contentType, data });
      const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...client.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE', message: IMAGE_TOO_LARGE(name, { width: side, height: side, frames: 1 }, PHOTO_LIMIT) });
      const json = await t.app.inject({
        method: 'POST',
        url: '/api/messages/upload',
        headers: client.headers,
        payload: { file: data.toString('base64'), type: 'image', name, mimeType: contentType },
      });
      expect(json.statusCode).toBe(413);
    }
    noFiles();
    expect(await rows(messageFiles)).toBe(0);
  });

  it('still accepts an ordinary photo as a message attachment', async () => {
    const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#123456' } }).jpeg().toBuffer();
    const body = multipartBody({}, { filename: 'site.jpg', contentType: 'image/jpeg', data: photo });
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...client.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
  });

  it('is refused as a vendor certification, keeping nothing', async () => {
    const body = await formBody({ formToken: await formToken(t, 'vendor'), homepageUrl: '', companyName: 'Acme' }, [
      { field: 'certificationsFiles', name: 'iso.jpg', content: jpegBomb, type: 'image/jpeg' },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: '192.0.2.77' });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(IMAGE_TOO_LARGE('iso.jpg', { width: 60_000, height: 60_000, frames: 1 }, VENDOR_IMAGE_LIMIT));
    expect(await rows(vendorApplications)).toBe(0);
    expect(await rows(vendorDocuments)).toBe(0);
  });

  it('is refused as a report image, keeping nothing', async () => {
    const body = await multipart(
      { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Dug', progress: 'Some' },
      [{ field: 'images', name: 'site.png', type: 'image/png', data: pngBomb }],
    );
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await rows(reportImages)).toBe(0);
  });
});

