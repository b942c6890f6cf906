import { readdirSync } from 'node:fs';
import { createDeflate, crc32 } from 'node:zlib';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogImages } from '../db/schema/blog.ts';
import { messageFiles } from '../db/schema/messages.ts';
import { reportImages } from '../db/schema/reports.ts';
import { vendorApplications, vendorDocuments } from '../db/schema/vendors.ts';
import { formToken, multipartBody as formBody } from '../../tests/helpers/forms.ts';
import { multipartBody } from '../../tests/helpers/multipart.ts';
import { multipart, type Actor } from '../../tests/helpers/portal.ts';
import type { TestApp } from '../../tests/helpers/test-app.ts';
import {
  BLOG_IMAGE_LIMIT,
  BLOG_IMAGE_MAX_PIXELS,
  declaredImageSize,
  IMAGE_TOO_LARGE,
  PHOTO_LIMIT,
  PHOTO_MAX_PIXELS,
  PHOTO_MAX_SIDE,
  VENDOR_IMAGE_LIMIT,
  VENDOR_IMAGE_MAX_PIXELS,
} from './image-limits.ts';
import { appWithProject } from '../../tests/helpers/actors.ts';
import { VENDOR_REQUIRED_FIELDS } from '../../tests/helpers/vendor-fields.ts';

// Decision 196: each kind of image has its own pixel limit, far below the single 120 MP of before
// (480 MB once decoded), checked on the header before anything is decoded.

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
  return out;
}

/**
 * A real, valid grey PNG of width x height pixels, every one black: a few hundred kilobytes that
 * decode to width x height bytes (x4 as RGBA in a browser). Its rows are deflated one at a time,
 * so making it never holds the decoded image.
 */
async function blackPng(width: number, height: number): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, no filter method quirks, no interlace
  const row = Buffer.alloc(width + 1); // filter byte 0 and the row's pixels
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (d: Buffer) => parts.push(d));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await done;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}

/** A real small PNG whose header is rewritten to declare width x height (with a correct checksum). */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const out = Buffer.from(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer());
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)) >>> 0, 29);
  return out;
}

let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; code: string; name: string };
let ip = 1;
const nextIp = () => `198.51.100.${ip++}`;
beforeAll(async () => ({ t, admin, client, project } = await appWithProject('Pixels')));
afterAll(() => t?.close());

type Table = typeof messageFiles | typeof reportImages | typeof vendorApplications | typeof vendorDocuments | typeof blogImages;
const rows = async (table: Table) => (await t.database.db.select({ n: count() }).from(table))[0].n;
const storedFiles = () => readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

const vendorFields = () => ({ homepageUrl: '', ...VENDOR_REQUIRED_FIELDS });
async function sendVendor(name: string, content: Buffer) {
  const body = await formBody({ formToken: await formToken(t, 'vendor'), ...vendorFields() }, [{ field: 'certificationsFiles', name, content, type: 'image/png' }]);
  return t.app.inject({ method: 'POST', url: '/api/vendors/applications', ...body, remoteAddress: nextIp() });
}
const sendMessageImage = (name: string, data: Buffer) => {
  const body = multipartBody({}, { filename: name, contentType: 'image/png', data });
  return t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...client.headers, ...body.headers }, payload: body.payload });
};

describe('pixel limits by kind of image', () => {
  it('are far below the 120 MP of before, and smaller for scans and blog images than for photos', () => {
    expect(PHOTO_MAX_PIXELS).toBeLessThanOrEqual(50_000_000);
    expect(VENDOR_IMAGE_MAX_PIXELS).toBeLessThan(PHOTO_MAX_PIXELS);
    expect(BLOG_IMAGE_MAX_PIXELS).toBeLessThan(PHOTO_MAX_PIXELS);
  });

  it('message images: a 60 MP image is refused (413) with the limit in words; a 48 MP panorama is kept', async () => {
    const files = storedFiles();
    const res = await sendMessageImage('site.png', await pngDeclaring(10_000, 6_000));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      success: false,
      code: 'PAYLOAD_TOO_LARGE',
      message:
        'site.png is too large an image to open safely (10,000 × 6,000 pixels). Photos may have at most 16,384 pixels a side and 50 megapixels. Please send a smaller image, or put it in a PDF or zip file.',
    });
    const tooLong = await sendMessageImage('strip.png', await pngDeclaring(PHOTO_MAX_SIDE + 1, 2_000));
    expect(tooLong.statusCode).toBe(413);
    // The refused upload's partial file may still be going when the answer arrives: wait for it.
    await expect.poll(storedFiles).toBe(files);
    expect(await rows(messageFiles)).toBe(0);
    const panorama = await sendMessageImage('pano.png', await pngDeclaring(16_000, 3_000));
    expect(panorama.statusCode).toBe(201);
  });

  it('report images: a 56 MP image is refused (413) by its header with the limit in words, not left to the decoder', async () => {
    const body = await multipart(
      { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Dug', progress: 'Some' },
      [{ field: 'images', name: 'yard.png', type: 'image/png', data: await pngDeclaring(8_000, 7_000) }],
    );
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(IMAGE_TOO_LARGE('yard.png', { width: 8_000, height: 7_000, frames: 1 }, PHOTO_LIMIT));
    expect(await rows(reportImages)).toBe(0);
  });

  it('blog images: a 30 MP image is refused (413) with the limit in words', async () => {
    const body = multipartBody({}, { filename: 'banner.png', contentType: 'image/png', data: await pngDeclaring(6_000, 5_000) });
    const res = await t.app.inject({ method: 'POST', url: '/api/blog/images', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(IMAGE_TOO_LARGE('banner.png', { width: 6_000, height: 5_000, frames: 1 }, BLOG_IMAGE_LIMIT));
    expect(await rows(blogImages)).toBe(0);
  });

  it('vendor scans: a 42 MP image is refused (413) with the limit in words, keeping nothing', async () => {
    const res = await sendVendor('licence.png', await pngDeclaring(7_000, 6_000));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(IMAGE_TOO_LARGE('licence.png', { width: 7_000, height: 6_000, frames: 1 }, VENDOR_IMAGE_LIMIT));
    expect(await rows(vendorApplications)).toBe(0);
    expect(await rows(vendorDocuments)).toBe(0);
  });

  it('vendor form: eight concurrent uploads of a real 96 MP PNG of a few hundred KB are all refused, memory flat', async () => {
    const bomb = await blackPng(12_000, 8_000);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await declaredImageSize(bomb)).toEqual({ width: 12_000, height: 8_000, frames: 1 });
    // A warm-up, so that what the first request loads (sharp, the routes' code) is not counted.
    expect((await sendVendor('warm.png', bomb)).statusCode).toBe(413);
    const files = storedFiles();
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => sendVendor(`scan-${i}.png`, bomb)));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const after = process.memoryUsage().rss;
    const mb = (n: number) => Math.round(n / 1024 / 1024);
    console.info(`vendor bombs x8: RSS before ${mb(before)} MB, peak ${mb(peak)} MB, after ${mb(after)} MB`);
    for (const res of answers) {
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
    }
    // One of them decoded would be 96 MB (384 MB as RGBA); eight, over 750 MB.
    expect(peak - before).toBeLessThan(64 * 1024 * 1024);
    expect(await rows(vendorApplications)).toBe(0);
    expect(await rows(vendorDocuments)).toBe(0);
    // The refused upload's partial file may still be going when the answer arrives: wait for it.
    await expect.poll(storedFiles).toBe(files);
  });

  it('report pipeline: four concurrent real 56 MP PNGs are refused by their header, never decoded', async () => {
    // Under the former 60 MP decoder limit, these were decoded and re-encoded (1.3 s, +76 MB RSS for four)
    // and kept, to be decoded again at 224 MB each in a client's browser.
    const bomb = await blackPng(7_000, 8_000);
    const send = async (i: number) => {
      const body = await multipart(
        { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Dug', progress: 'Some' },
        [{ field: 'images', name: `yard-${i}.png`, type: 'image/png', data: bomb }],
      );
      return t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    };
    expect((await send(0)).statusCode).toBe(413);
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const answers = await Promise.all([1, 2, 3, 4].map(send));
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.info(`report bombs x4: RSS before ${Math.round(before / 1048576)} MB, peak ${Math.round(peak / 1048576)} MB`);
    expect(answers.map((a) => a.statusCode)).toEqual([413, 413, 413, 413]);
    expect(peak - before).toBeLessThan(32 * 1024 * 1024);
    expect(await rows(reportImages)).toBe(0);
  });
});
