import { rmSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MEDIA_MESSAGES, mediaPdfUrl, mediaVariantUrl, type MediaItem } from '../../../common/schemas/media.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { mediaItems, mediaUsages } from '../../db/schema/media.ts';
import { flatImage, pixelBomb, uploadMedia } from '../../../tests/helpers/media.ts';
import { createTestApp, createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { storedFiles } from '../../../tests/helpers/uploads.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';
import { setMediaUsage } from './media-usage.ts';

const PUBLIC_URL = 'https://www.site.example';
let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL });
  const editor = await createUser(t, { role: 'admin', name: 'Efe Editor', staffRole: 'editor' });
  headers = { cookie: (await signIn(t, editor, 'admin')).cookie, origin: PUBLIC_URL };
});
afterAll(() => t?.close());
beforeEach(async () => {
  await t.database.db.delete(mediaUsages);
  await t.database.db.delete(mediaItems);
  rmSync(path.join(t.uploadsDir, 'media'), { recursive: true, force: true });
});

const mediaFiles = () => storedFiles(t.uploadsDir).filter((f) => f.startsWith('media/'));
const rowCount = async () => (await t.database.db.select().from(mediaItems)).length;
const upload = (file: Parameters<typeof uploadMedia>[2], alt?: string | null) => uploadMedia(t, headers, file, alt);
const jpegFile = async (width = 1000, height = 600) => ({ filename: 'site.jpg', contentType: 'image/jpeg', data: await flatImage('jpeg', width, height) });
async function uploaded(file?: Parameters<typeof uploadMedia>[2]): Promise<MediaItem> {
  const res = await upload(file ?? (await jpegFile()));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item;
}

describe('upload', () => {
  it.each(['jpeg', 'png', 'webp', 'avif'] as const)('accepts a %s and serves AVIF and WebP at each width up to its own, cached for good', async (format) => {
    const res = await upload({ filename: `beam.${format}`, contentType: `image/${format}`, data: await flatImage(format, 1000, 600) });
    expect(res.statusCode, res.body).toBe(201);
    const item: MediaItem = res.json().item;
    expect(item).toMatchObject({ mime: `image/${format}`, width: 1000, height: 600, altText: 'A crane lifting a steel beam', focalX: 0.5, focalY: 0.5, usages: [] });
    expect(item.variants.map((v) => `${v.format}@${v.width}`).sort()).toEqual(
      ['avif@1000', 'avif@320', 'avif@640', 'avif@960', 'webp@1000', 'webp@320', 'webp@640', 'webp@960'],
    );
    for (const v of item.variants) {
      const got = await t.app.inject({ method: 'GET', url: mediaVariantUrl(item._id, v.width, v.format) });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(`image/${v.format}`);
      expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(got.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual([v.format === 'avif' ? 'heif' : 'webp', v.width, v.height]);
    }
    expect(mediaFiles()).toHaveLength(8);
  });

  it('never enlarges: a wide photo stops at 1920, a small one at its own width', async () => {
    const wide = await uploaded(await jpegFile(2400, 1200));
    // Each width once (a photo wider than 1920 once had two 1920 renditions).
    expect(wide.variants.map((v) => `${v.format}@${v.width}`)).toEqual([320, 640, 960, 1280, 1920].flatMap((w) => [`avif@${w}`, `webp@${w}`]));
    const small = await uploaded(await jpegFile(500, 300));
    expect(small.variants.map((v) => v.width)).toEqual([320, 320, 500, 500]);
    expect((await t.app.inject({ method: 'GET', url: mediaVariantUrl(small._id, 640, 'webp') })).statusCode).toBe(404);
  });

  it('judges the bytes, not the name: a PNG called .jpg is a PNG, text called .png is refused', async () => {
    const png = await uploaded({ filename: 'photo.jpg', contentType: 'image/jpeg', data: await flatImage('png', 400, 300) });
    expect(png.mime).toBe('image/png');
    const text = await upload({ filename: 'photo.png', contentType: 'image/png', data: Buffer.from('not an image at all') });
    expect(text.statusCode).toBe(415);
    expect(text.json().message).toBe('photo.png is not a JPEG, PNG, WebP or AVIF image');
    expect(await rowCount()).toBe(1);
  });

  it('strips EXIF and the GPS position, and keeps the orientation applied', async () => {
    const data = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#468' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '6/1 27/1 1234/100' } })
      .toBuffer();
    const sent = await sharp(data).metadata();
    expect(sent.exif?.includes(Buffer.from('PhoneCam'))).toBe(true);
    expect(sent.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer
    const item = await uploaded({ filename: 'gps.jpg', contentType: 'image/jpeg', data });
    // Turned upright: a quarter turn makes the 600 x 400 picture 400 x 600.
    expect([item.width, item.height]).toEqual([400, 600]);
    for (const file of mediaFiles()) {
      const meta = await sharp(await buffer(await t.app.storage.get(file))).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation ?? 1).toBe(1);
      expect(meta.height! > meta.width!).toBe(true);
    }
  });

  it.each([
    ['a pixel bomb (60,000 x 60,000 declared in 100 bytes)', async () => ({ filename: 'bomb.png', contentType: 'image/png', data: await pixelBomb(60_000, 60_000) }), 413, 'bomb.png is too large an image to open safely'],
    ['an SVG', async () => ({ filename: 'logo.svg', contentType: 'image/svg+xml', data: Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') }), 415, 'SVG images are not accepted'],
    ['a 21 MB file', async () => ({ filename: 'huge.jpg', contentType: 'image/jpeg', data: Buffer.alloc(21 * 1024 * 1024, 0xff) }), 413, 'huge.jpg is larger than 20 MB'],
  ])('refuses %s and stores nothing', async (_label, file, status, message) => {
    const res = await upload(await file());
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
    expect(await rowCount()).toBe(0);
    expect(mediaFiles()).toEqual([]);
  });

  it.each([
    ['missing', null],
    ['blank', '   '],
  ])('refuses an upload whose alt text is %s (400, field message) and keeps no row and no file', async (_label, alt) => {
    const res = await upload(await jpegFile(), alt);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'altText', message: 'Describe the image for people who cannot see it (alt text)' }] });
    expect(await rowCount()).toBe(0);
    expect(mediaFiles()).toEqual([]);
  });

  it('takes several uploads at once, each whole', async () => {
    const files = await Promise.all([300, 500, 700, 900].map((w) => jpegFile(w, 200)));
    const results = await Promise.all(files.map((f) => upload(f)));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const items: MediaItem[] = results.map((r) => r.json().item);
    expect(new Set(items.map((i) => i._id)).size).toBe(4);
    expect(await rowCount()).toBe(4);
    expect(mediaFiles()).toHaveLength(items.reduce((n, i) => n + i.variants.length, 0));
  });
});

describe('list, edit, delete', () => {
  it('lists newest first, a page at a time, with where each is used', async () => {
    const ids: string[] = [];
    for (const w of [300, 400, 500]) {
      ids.push((await uploaded(await jpegFile(w, 200)))._id);
      t.clock.advance(1000);
    }
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'team-member:1', 'Team: Ada Obi', [ids[0]!]));
    const first = await t.app.inject({ method: 'GET', url: '/api/media?pageSize=2', headers });
    expect(first.statusCode).toBe(200);
    expect(first.json().items.map((i: MediaItem) => i._id)).toEqual([ids[2], ids[1]]);
    expect(first.json().pagination).toEqual({ page: 1, pageSize: 2, total: 3, hasMore: true });
    const second = await t.app.inject({ method: 'GET', url: '/api/media?pageSize=2&page=2', headers });
    expect(second.json().items).toMatchObject([{ _id: ids[0], usages: [{ usedIn: 'team-member:1', label: 'Team: Ada Obi' }] }]);
  });

  it('changes the alt text and the focal point, recorded in the audit log; refuses a point outside the picture', async () => {
    const item = await uploaded();
    const res = await t.app.inject({ method: 'PATCH', url: `/api/media/${item._id}`, headers, payload: { altText: 'Jetty at dawn', focalX: 0.25, focalY: 0.8 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().item).toMatchObject({ altText: 'Jetty at dawn', focalX: 0.25, focalY: 0.8 });
    const bad = await t.app.inject({ method: 'PATCH', url: `/api/media/${item._id}`, headers, payload: { focalX: 1.5 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ field: 'body.focalX', message: 'Between 0 and 1' }]);
    const blank = await t.app.inject({ method: 'PATCH', url: `/api/media/${item._id}`, headers, payload: { altText: ' ' } });
    expect(blank.statusCode).toBe(400);
    const missing = await t.app.inject({ method: 'PATCH', url: '/api/media/00000000-0000-4000-8000-000000000000', headers, payload: { altText: 'x' } });
    expect(missing.statusCode).toBe(404);
    const audit = await t.database.db.select().from(auditEvents);
    expect(audit.filter((a) => a.entityId === item._id).map((a) => a.action).sort()).toEqual(['media.update', 'media.upload']);
  });

  it('refuses (409, naming the places) to delete an image in use; once unused, removes its row and every file', async () => {
    const item = await uploaded();
    const other = await uploaded();
    await t.database.db.transaction(async (tx) => {
      await setMediaUsage(tx, 'team-member:7', 'Team: Ada Obi', [item._id]);
      await setMediaUsage(tx, 'page:about', 'About page', [item._id, other._id]);
    });
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/media/${item._id}`, headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This image is used in About page, Team: Ada Obi. Remove it there first.');
    expect(await rowCount()).toBe(2);
    expect(mediaFiles()).toHaveLength(16);

    await t.database.db.transaction(async (tx) => {
      await setMediaUsage(tx, 'team-member:7', 'Team: Ada Obi', []);
      await setMediaUsage(tx, 'page:about', 'About page', [other._id]);
    });
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/media/${item._id}`, headers });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await t.database.db.select().from(mediaItems)).map((r) => r.id)).toEqual([other._id]);
    expect(mediaFiles().every((f) => f.startsWith(`media/${other._id}/`))).toBe(true);
    expect(mediaFiles()).toHaveLength(8);
    expect((await t.app.inject({ method: 'GET', url: mediaVariantUrl(item._id, 320, 'webp') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/media/${item._id}`, headers })).statusCode).toBe(404);
  });

  it.each(['project_manager', 'support'] as const)('refuses a %s every staff route (403), and keeps the renditions public', async (staffRole) => {
    const item = await uploaded();
    const user = await createUser(t, { role: 'admin', staffRole });
    const h = { cookie: (await signIn(t, user, 'admin')).cookie, origin: PUBLIC_URL };
    const calls = [
      t.app.inject({ method: 'GET', url: '/api/media', headers: h }),
      uploadMedia(t, h, await jpegFile()),
      t.app.inject({ method: 'PATCH', url: `/api/media/${item._id}`, headers: h, payload: { altText: 'x' } }),
      t.app.inject({ method: 'DELETE', url: `/api/media/${item._id}`, headers: h }),
    ];
    expect((await Promise.all(calls)).map((r) => r.statusCode)).toEqual([403, 403, 403, 403]);
    expect(await rowCount()).toBe(1);
    expect((await t.app.inject({ method: 'GET', url: mediaVariantUrl(item._id, 320, 'avif') })).statusCode).toBe(200);
  });

  it('answers 404 for a rendition name that is not one', async () => {
    const item = await uploaded();
    for (const file of ['320.png', '../x', '99999.webp', '320.webp.gz']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/media/${item._id}/${encodeURIComponent(file)}` })).statusCode, file).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/media/not-an-id/320.webp' })).statusCode).toBe(404);
  });
});

describe('PDF items (decision 295)', () => {
  const pdfUpload = (data: Buffer, fields: Record<string, string> = {}, filename = 'Certificat ISO 9001 été\u202e.pdf') => {
    const { payload, headers: h } = multipartBody({ altText: 'ISO 9001 certificate, 2024', ...fields }, { filename, contentType: 'application/pdf', data });
    return t.app.inject({ method: 'POST', url: '/api/media', headers: { ...headers, ...h }, payload });
  };

  it('keeps a PDF as uploaded (no renditions) and serves it as a download under a cleaned name, never sniffed', async () => {
    const bytes = samplePdf('Certificate of registration');
    const res = await pdfUpload(bytes, { kind: 'pdf' });
    expect(res.statusCode, res.body).toBe(201);
    const item: MediaItem = res.json().item;
    expect(item).toMatchObject({ kind: 'pdf', mime: 'application/pdf', width: 0, height: 0, bytes: bytes.length, variants: [], altText: 'ISO 9001 certificate, 2024' });
    expect(mediaFiles()).toEqual([`media/${item._id}/document.pdf`]);

    const got = await t.app.inject({ method: 'GET', url: mediaPdfUrl(item._id) });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toContain('sandbox');
    // No direction mark of the uploader's name reaches the header; an ASCII name beside the exact one.
    expect(got.headers['content-disposition']).toBe(`attachment; filename="Certificat ISO 9001 _t_.pdf"; filename*=UTF-8''Certificat%20ISO%209001%20%C3%A9t%C3%A9.pdf`);
    expect(Buffer.compare(got.rawPayload, bytes)).toBe(0);

    // The picker's kinds: only PDFs, only images.
    const image = await uploaded();
    const list = async (kind: string) => (await t.app.inject({ method: 'GET', url: `/api/media?kind=${kind}`, headers })).json().items.map((i: MediaItem) => i._id);
    expect(await list('pdf')).toEqual([item._id]);
    expect(await list('image')).toEqual([image._id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/media?kind=video', headers })).statusCode).toBe(400);
    // An image has no document.pdf, a PDF no renditions.
    expect((await t.app.inject({ method: 'GET', url: mediaPdfUrl(image._id) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: mediaVariantUrl(item._id, 320, 'webp') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/media/not-a-uuid/document.pdf' })).statusCode).toBe(404);
  });

  it('judges the bytes: a file called .pdf that is not one is refused for a PDF field, a PDF for an image field; nothing is kept', async () => {
    const notPdf = await pdfUpload(Buffer.from('<html>%PDF-1.4 not at the start</html>'), { kind: 'pdf' });
    expect(notPdf.statusCode).toBe(415);
    expect(notPdf.json().message).toBe(MEDIA_MESSAGES.notPdf);
    const image = await pdfUpload(await flatImage('png', 200, 100), { kind: 'pdf' }, 'photo.pdf');
    expect(image.statusCode).toBe(415);
    const pdfAsImage = await pdfUpload(samplePdf(), { kind: 'image' }, 'scan.jpg');
    expect(pdfAsImage.statusCode).toBe(415);
    expect(pdfAsImage.json().message).toBe(MEDIA_MESSAGES.pdfNotImage);
    // Without a kind, bytes that are neither are refused as before.
    expect((await pdfUpload(Buffer.from('plain words'))).statusCode).toBe(415);
    expect((await pdfUpload(samplePdf(), { kind: 'spreadsheet' })).statusCode).toBe(400);
    // The title (alt text) is required for a PDF too.
    const { payload, headers: h } = multipartBody({ altText: '  ' }, { filename: 'c.pdf', contentType: 'application/pdf', data: samplePdf() });
    const untitled = await t.app.inject({ method: 'POST', url: '/api/media', headers: { ...headers, ...h }, payload });
    expect(untitled.statusCode).toBe(400);
    expect(untitled.json().details).toEqual([{ field: 'altText', message: MEDIA_MESSAGES.altRequired }]);
    expect(await rowCount()).toBe(0);
    expect(mediaFiles()).toEqual([]);
  });

  it('a PDF in use cannot be deleted; once free, its row, audit event and file go', async () => {
    const res = await pdfUpload(samplePdf(), {}, 'licence.pdf');
    expect(res.statusCode, res.body).toBe(201);
    const item: MediaItem = res.json().item;
    expect(item.kind).toBe('pdf');
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'site-content:certificates', 'Website: Certificates', [item._id]));
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/media/${item._id}`, headers });
    expect(refused.statusCode).toBe(409);
    await t.database.db.transaction((tx) => setMediaUsage(tx, 'site-content:certificates', 'Website: Certificates', []));
    expect((await t.app.inject({ method: 'DELETE', url: `/api/media/${item._id}`, headers })).statusCode).toBe(200);
    expect(mediaFiles()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: mediaPdfUrl(item._id) })).statusCode).toBe(404);
  });
});
