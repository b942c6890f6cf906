import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { blogImageUrl } from '../../../common/schemas/blog.ts';
import { blogImages } from '../../db/schema/blog.ts';
import { hitRateLimit } from '../../lib/rate-limit.ts';
import { pruneOldRecords } from '../../lib/retention.ts';
import { created, headers, HOUR, imageCount, PUBLIC_URL, storedFiles, t, setUpBlogAdmin } from '../../../tests/helpers/blog.ts';
import { pixelBomb } from '../../../tests/helpers/media.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { sampleJpeg, samplePdf, samplePng } from '../../../tests/helpers/sample-files.ts';
import { createUser, signIn } from '../../../tests/helpers/test-app.ts';
import { BLOG_IMAGE_UPLOAD_RATE_LIMIT } from './blog.routes.ts';

setUpBlogAdmin();


function upload(file: { filename: string; contentType: string; data: Buffer } | null, field = 'file') {
  const { payload, headers: h } = multipartBody({}, file && { ...file, field });
  return t.app.inject({ method: 'POST', url: '/api/blog/images', headers: { ...headers, ...h }, payload });
}

describe('image uploads', () => {
  it('stores a JPEG as AVIF and WebP renditions without its metadata, served publicly and cached', async () => {
    const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 10, g: 90, b: 160 } } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-owner', Make: 'PhoneCam' } } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await upload({ filename: 'jetty.jpg', contentType: 'image/jpeg', data: jpeg });
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json().image;
    expect(image).toMatchObject({ width: 1200, height: 800 });
    expect(await imageCount()).toBe(1);

    for (const [width, format, expectedWidth] of [[480, 'avif', 480], [960, 'webp', 960], [1600, 'webp', 1200]] as const) {
      const got = await t.app.inject({ method: 'GET', url: blogImageUrl(image._id, width, format) });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type']).toBe(`image/${format}`);
      expect(got.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(got.rawPayload).metadata();
      expect(meta.format).toBe(format === 'avif' ? 'heif' : 'webp');
      expect(meta.width).toBe(expectedWidth);
      expect(meta.exif).toBeUndefined();
    }
    expect(storedFiles()).toHaveLength(6);
  });

  it('accepts a PNG', async () => {
    const res = await upload({ filename: 'plan.png', contentType: 'image/png', data: await samplePng(300, 200) });
    expect(res.statusCode).toBe(201);
    expect(res.json().image).toMatchObject({ width: 300, height: 200 });
  });

  it.each([
    ['a non-image', { filename: 'notes.txt', contentType: 'text/plain', data: Buffer.from('just some text') }, 415, 'is not a JPEG, PNG, WebP or AVIF image'],
    ['a PDF calling itself a JPEG', { filename: 'banner.jpg', contentType: 'image/jpeg', data: samplePdf() }, 415, 'banner.jpg is not a JPEG, PNG, WebP or AVIF image'],
    ['an 11 MB file', { filename: 'huge.jpg', contentType: 'image/jpeg', data: Buffer.alloc(11 * 1024 * 1024, 0xff) }, 413, 'huge.jpg is larger than 10 MB'],
  ])('refuses %s and stores nothing', async (_label, file, status, message) => {
    const filesBefore = storedFiles();
    const res = await upload(file);
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toContain(message);
    expect(await imageCount()).toBe(0);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('refuses a pixel bomb before decoding it, and a truncated image', async () => {
    const filesBefore = storedFiles();
    const bomb = await upload({ filename: 'bomb.png', contentType: 'image/png', data: await pixelBomb(30_000, 30_000) });
    expect(bomb.statusCode).toBe(413);
    expect(bomb.json().message).toBe(
      'bomb.png is too large an image to open safely (30,000 × 30,000 pixels). Blog images may have at most 10,000 pixels a side and 25 megapixels. Please resize it (1,600 pixels wide is enough) and upload it again.',
    );
    const jpeg = await sampleJpeg(200, 100);
    const broken = await upload({ filename: 'broken.jpg', contentType: 'image/jpeg', data: jpeg.subarray(0, jpeg.length / 2) });
    expect(broken.statusCode).toBe(415);
    expect(await imageCount()).toBe(0);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('refuses a request without a file or with the file in another field', async () => {
    expect((await upload(null)).json().message).toBe('Please choose an image file');
    const other = await upload({ filename: 'a.png', contentType: 'image/png', data: await samplePng() }, 'banner');
    expect(other.statusCode).toBe(400);
    expect(await imageCount()).toBe(0);
  });

  it('limits uploads per staff member per hour', async () => {
    const other = await createUser(t, { role: 'admin' });
    const otherHeaders = { cookie: (await signIn(t, other, 'admin')).cookie, origin: PUBLIC_URL };
    await hitRateLimit(t.app, BLOG_IMAGE_UPLOAD_RATE_LIMIT, other.id, BLOG_IMAGE_UPLOAD_RATE_LIMIT.limit);
    const { payload, headers: h } = multipartBody({}, { field: 'file', filename: 'a.png', contentType: 'image/png', data: await samplePng() });
    const res = await t.app.inject({ method: 'POST', url: '/api/blog/images', headers: { ...otherHeaders, ...h }, payload });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many image uploads\. Please try again in /);
    expect(res.headers['retry-after']).toBeDefined();
    expect(await imageCount()).toBe(0);
  });

  it('answers 404 for unknown images and rendition names', async () => {
    const res = await upload({ filename: 'plan.png', contentType: 'image/png', data: await samplePng() });
    const id = res.json().image._id;
    for (const url of [
      `/api/blog/images/2f1a6c0e-8d53-4c1e-9a55-0d9a6f0f1b2c/960.webp`,
      `/api/blog/images/${id}/961.webp`,
      `/api/blog/images/${id}/960.png`,
      `/api/blog/images/${id}/..%2F..%2Fetc.webp`,
      `/api/blog/images/not-an-id/960.webp`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('lets the retention job remove images no post took up after a day, keeping banners and pictures in the text', async () => {
    const filesBefore = storedFiles().length;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await upload({ filename: `p${i}.png`, contentType: 'image/png', data: await samplePng(40 + i, 30) })).json().image._id);
    const [banner, inline, orphan] = ids;
    await created({ bannerImageId: banner, content: `<p>Look:</p><img src="${blogImageUrl(inline, 960, 'webp')}" alt="A crane">` });
    t.clock.advance(23 * HOUR);
    expect((await pruneOldRecords(t.app)).orphanBlogImages).toBe(0);
    t.clock.advance(2 * HOUR);
    expect((await pruneOldRecords(t.app)).orphanBlogImages).toBe(1);
    const left = (await t.database.db.select({ id: blogImages.id }).from(blogImages)).map((r) => r.id).sort();
    expect(left).toEqual([banner, inline].sort());
    expect(storedFiles().some((f) => f.includes(orphan))).toBe(false);
    expect(storedFiles()).toHaveLength(filesBefore + 12);
    expect((await t.app.inject({ method: 'GET', url: blogImageUrl(orphan, 480, 'webp') })).statusCode).toBe(404);
  });
});
