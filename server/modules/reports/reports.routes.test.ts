import { readdirSync } from 'node:fs';
import sharp from 'sharp';
import { createLocalStorage } from '../../storage/local-storage.ts';
import { isLosslessWebp } from './report-images.ts';
import type { FileStorage } from '../../storage/storage.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { company } from '../../../common/content/company.ts';
import { REPORT_IMAGE_MAX_BYTES, REPORT_IMAGES_MAX } from '../../../common/schemas/reports.ts';
import { progressReports, reportImages } from '../../db/schema/reports.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { actor, createProjectVia, makeImage, multipart, type Actor, type MultipartFile } from '../../../tests/helpers/portal.ts';
import { appWithTwoClients } from '../../../tests/helpers/actors.ts';

let t: TestApp;
let admin: Actor;
let clientA: Actor;
let clientB: Actor;
let projectA: { _id: string; code: string; name: string };
let jpeg: Buffer;
let png: Buffer;
let webp: Buffer;

beforeAll(async () => {
  ({ t, admin, clientA, clientB } = await appWithTwoClients());
  projectA = await createProjectVia(t, admin, clientA.id, { name: 'Eleme pipeline tie-in' });
  [jpeg, png, webp] = await Promise.all([makeImage('jpeg', { width: 800, height: 600 }), makeImage('png'), makeImage('webp')]);
});
afterAll(() => t?.close());

const fieldsFor = (project: { _id: string; code: string; name: string }, extra: Record<string, string> = {}) => ({
  date: '2026-11-20',
  projectId: project._id,
  projectCode: project.code,
  project: project.name,
  tasks: 'Excavated trench section 4',
  progress: 'Forty percent of the trench is open',
  challenges: 'Heavy rain on Tuesday',
  ...extra,
});

const image = (data: Buffer, name: string, type = 'image/jpeg'): MultipartFile => ({ field: 'images', name, type, data });

async function postReport(fields: Record<string, string>, files: MultipartFile[] = [], headers = admin.headers) {
  const body = await multipart(fields, files);
  return t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...headers, ...body.headers }, payload: body.payload });
}

/** Every file under the uploads folder (the local storage of this test app). */
const storedFiles = () => readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

async function expectNothingStored() {
  expect(storedFiles()).toEqual([]);
  expect(await t.database.db.select().from(progressReports)).toEqual([]);
  expect(await t.database.db.select().from(reportImages)).toEqual([]);
}

describe('failed uploads leave nothing behind', () => {
  it('refuses a file that is not JPEG, PNG or WebP by its bytes, whatever it claims, after a good image', async () => {
    const fake = Buffer.from('<html><script>alert(1)</script></html>');
    const res = await postReport(fieldsFor(projectA), [image(jpeg, 'ok.jpg'), image(fake, 'photo.jpg', 'image/jpeg')]);
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'photo.jpg is not a JPEG, PNG or WebP image' });
    await expectNothingStored();
  });

  it('refuses a GIF even though it is an image', async () => {
    const gif = await (await import('sharp')).default({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).gif().toBuffer();
    const res = await postReport(fieldsFor(projectA), [image(gif, 'anim.gif', 'image/gif')]);
    expect(res.statusCode).toBe(415);
    await expectNothingStored();
  });

  it(`refuses an image over ${REPORT_IMAGE_MAX_BYTES / 1024 / 1024} MB`, async () => {
    const big = Buffer.concat([jpeg, Buffer.alloc(REPORT_IMAGE_MAX_BYTES)]);
    const res = await postReport(fieldsFor(projectA), [image(png, 'small.png', 'image/png'), image(big, 'huge.jpg')]);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('huge.jpg is larger than 10 MB');
    await expectNothingStored();
  });

  it(`refuses more than ${REPORT_IMAGES_MAX} images`, async () => {
    const files = Array.from({ length: REPORT_IMAGES_MAX + 1 }, (_, i) => image(png, `p${i}.png`, 'image/png'));
    const res = await postReport(fieldsFor(projectA), files);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(`A report can carry at most ${REPORT_IMAGES_MAX} images`);
    await expectNothingStored();
  });

  it.each(['date', 'project', 'tasks', 'progress'])('requires %s, and keeps none of the uploaded images without it', async (field) => {
    const fields: Record<string, string> = fieldsFor(projectA);
    delete fields[field];
    const res = await postReport(fields, [image(jpeg, 'a.jpg')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    await expectNothingStored();
  });

  it('refuses text the database cannot store (NUL) as a validation error, keeping none of the images', async () => {
    const res = await postReport(fieldsFor(projectA, { tasks: 'Dug\u0000trench' }), [image(jpeg, 'a.jpg')]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain('tasks');
    await expectNothingStored();
  });

  it('refuses a report for a missing project, keeping none of its images', async () => {
    const res = await postReport(fieldsFor({ _id: '00000000-0000-4000-8000-000000000000', code: 'X', name: 'X' }), [image(jpeg, 'a.jpg')]);
    expect(res.statusCode).toBe(404);
    await expectNothingStored();
  });

  it('refuses a JSON body and lets only admins create reports', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/reports', headers: admin.headers, payload: fieldsFor(projectA) });
    expect(json.statusCode).toBe(415);
    const byClient = await postReport(fieldsFor(projectA), [image(jpeg, 'a.jpg')], clientA.headers);
    expect(byClient.statusCode).toBe(403);
    await expectNothingStored();
  });
});

describe('a report with images', () => {
  let report: {
    _id: string;
    pdfUrl: string;
    images: { _id: string; url: string; thumbnailUrl: string; name: string; mimeType: string; width: number; height: number }[];
  };

  beforeAll(async () => {
    const res = await postReport(fieldsFor(projectA, { feedback: 'Client asked for weekly photos' }), [
      image(jpeg, 'trench.jpg'),
      image(png, 'site plan.png', 'image/png'),
      image(webp, 'crew.webp', 'image/webp'),
    ]);
    expect(res.statusCode).toBe(201);
    report = res.json().report;
  });

  it('is stored with its fields, the company as default team, and its images in order', () => {
    expect(report).toMatchObject({
      date: '2026-11-20',
      projectId: projectA._id,
      projectCode: projectA.code,
      project: 'Eleme pipeline tie-in',
      team: company.name,
      tasks: 'Excavated trench section 4',
      progress: 'Forty percent of the trench is open',
      challenges: 'Heavy rain on Tuesday',
      actionTaken: '',
      feedback: 'Client asked for weekly photos',
    });
    expect(report.images.map((i) => [i.name, i.mimeType])).toEqual([
      ['trench.jpg', 'image/jpeg'],
      ['site plan.png', 'image/png'],
      ['crew.webp', 'image/webp'],
    ]);
    expect(report.images[0]).toMatchObject({ width: 800, height: 600 });
    // original and thumbnail of each image
    expect(storedFiles()).toHaveLength(6);
  });

  it('keeps the team staff typed', async () => {
    const res = await postReport(fieldsFor(projectA, { team: 'Pipeline crew B' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().report).toMatchObject({ team: 'Pipeline crew B', images: [] });
  });

  it("serves the project's client the full image with its sniffed type, nosniff and Content-Disposition", async () => {
    const res = await t.app.inject({ method: 'GET', url: report.images[0].url, headers: clientA.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(`inline; filename="trench.jpg"; filename*=UTF-8''trench.jpg`);
    // The original is re-encoded (metadata dropped, see 'report image privacy'): same format and size.
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 800, 600]);
  });

  it('serves a thumbnail (WebP, at most 480 px) made by sharp', async () => {
    const res = await t.app.inject({ method: 'GET', url: report.images[0].thumbnailUrl, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    const meta = await (await import('sharp')).default(res.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(480);
    expect(meta.height).toBe(360);
  });

  it("hides another client's report images behind 404, exactly like a missing image", async () => {
    const other = await t.app.inject({ method: 'GET', url: report.images[0].url, headers: clientB.headers });
    const otherThumb = await t.app.inject({ method: 'GET', url: report.images[0].thumbnailUrl, headers: clientB.headers });
    const missing = await t.app.inject({
      method: 'GET',
      url: `/api/reports/${report._id}/images/00000000-0000-4000-8000-000000000000`,
      headers: clientB.headers,
    });
    expect(other.statusCode).toBe(404);
    expect(otherThumb.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect((await t.app.inject({ method: 'GET', url: report.images[0].url })).statusCode).toBe(401);
  });

  it("lists the project's reports for its client, newest first, with their images", async () => {
    t.clock.advance(1000);
    const later = await postReport(fieldsFor(projectA, { date: '2026-11-27', tasks: 'Welding' }));
    const res = await t.app.inject({ method: 'GET', url: `/api/reports/project/${projectA._id}`, headers: clientA.headers });
    expect(res.statusCode).toBe(200);
    const { reports, pagination } = res.json();
    expect(reports[0]._id).toBe(later.json().report._id);
    expect(reports.find((r: { _id: string }) => r._id === report._id).images).toHaveLength(3);
    expect(pagination).toMatchObject({ page: 1, pageSize: 50, total: 3, hasMore: false });
    const paged = await t.app.inject({ method: 'GET', url: `/api/reports/project/${projectA._id}?pageSize=1&page=2`, headers: clientA.headers });
    expect(paged.json().reports).toHaveLength(1);
    expect(paged.json().pagination).toEqual({ page: 2, pageSize: 1, total: 3, hasMore: true });
  });

  it("hides another client's reports behind 404, exactly like a missing project", async () => {
    const other = await t.app.inject({ method: 'GET', url: `/api/reports/project/${projectA._id}`, headers: clientB.headers });
    const missing = await t.app.inject({ method: 'GET', url: '/api/reports/project/00000000-0000-4000-8000-000000000000', headers: clientB.headers });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it('downloads as a valid PDF holding the report text and every image', async () => {
    const res = await t.app.inject({ method: 'GET', url: report.pdfUrl, headers: clientA.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="progress-report-.+-2026-11-20\.pdf"/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-8).toString()).toContain('%%EOF');
    const text = await pdfText(pdf);
    for (const expected of [
      company.name,
      'Progress Report',
      'Eleme pipeline tie-in',
      projectA.code,
      // The report's day as people read it (issue 22: one date format, decision 236).
      '20 Nov 2026',
      'Excavated trench section 4',
      'Forty percent of the trench is open',
      'Heavy rain on Tuesday',
      'Client asked for weekly photos',
      'Images',
      'site plan.png',
    ]) {
      expect(text).toContain(expected);
    }
    expect(pdf.toString('latin1').match(/\/Subtype \/Image/g)).toHaveLength(3);
  });

  it('writes the naira sign and Yoruba, Igbo and Hausa letters into the PDF as typed', async () => {
    const words = {
      tasks: 'Paid Ọláníyàn & Sons ₦2,450,000 for the Ẹ̀gbẹ́ jetty piles',
      progress: 'Ụzọ access road graded; Ƙofar Mata crew on site',
      challenges: 'Ṣàngó bridge closed for two days',
    };
    const created = await postReport(fieldsFor(projectA, words));
    expect(created.statusCode).toBe(201);
    const res = await t.app.inject({ method: 'GET', url: created.json().report.pdfUrl, headers: clientA.headers });
    expect(res.statusCode).toBe(200);
    const text = (await pdfText(res.rawPayload)).normalize('NFC');
    for (const typed of Object.values(words)) expect(text).toContain(typed.normalize('NFC'));
  });

  it("hides another client's report PDF behind 404, exactly like a missing report", async () => {
    const other = await t.app.inject({ method: 'GET', url: report.pdfUrl, headers: clientB.headers });
    const missing = await t.app.inject({ method: 'GET', url: '/api/reports/00000000-0000-4000-8000-000000000000/pdf', headers: clientB.headers });
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/application\/json/);
    expect(other.json()).toEqual(missing.json());
  });
});

describe('report image privacy', () => {
  // EXIF GPS fields as sharp writes them (IFD3 is the GPS directory): a site 4°49'N 7°2'E.
  const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '4/1 49/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '7/1 2/1 0/1' };
  // The EXIF tag that points to the GPS directory (0x8825), in either byte order.
  const hasGpsPointer = (exif: Buffer | undefined) => !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));

  async function uploadOne(data: Buffer, name: string, type: string) {
    const res = await postReport(fieldsFor(projectA), [image(data, name, type)]);
    expect(res.statusCode).toBe(201);
    const [img] = res.json().report.images;
    const served = await t.app.inject({ method: 'GET', url: img.url, headers: clientA.headers });
    expect(served.statusCode).toBe(200);
    return { img, bytes: served.rawPayload };
  }

  it('serves a JPEG that carried an EXIF GPS block without any EXIF, XMP or IPTC, still a JPEG of the same size', async () => {
    const withGps = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7' } })
      .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Site Camera' }, IFD3: GPS })
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"></rdf:RDF></x:xmpmeta>')
      .jpeg({ quality: 92 })
      .toBuffer();
    const before = await sharp(withGps).metadata();
    expect(hasGpsPointer(before.exif)).toBe(true);
    expect(before.xmp).toBeDefined();

    const { img, bytes } = await uploadOne(withGps, 'site.jpg', 'image/jpeg');
    const after = await sharp(bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect(bytes.includes(Buffer.from('Exif\0\0'))).toBe(false);
    expect([after.format, after.width, after.height]).toEqual(['jpeg', 640, 480]);
    expect(img).toMatchObject({ mimeType: 'image/jpeg', width: 640, height: 480 });
  });

  it('turns a photo upright by its EXIF orientation, so it still shows the right way up without the tag', async () => {
    // 6 = the camera was turned a quarter: stored 600 wide, shown 600 tall.
    const sideways = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#a73' } })
      .withMetadata({ orientation: 6 })
      .withExif({ IFD3: GPS })
      .jpeg()
      .toBuffer();
    const { img, bytes } = await uploadOne(sideways, 'sideways.jpg', 'image/jpeg');
    const after = await sharp(bytes).metadata();
    expect(after.orientation).toBeUndefined();
    expect([after.width, after.height]).toEqual([400, 600]);
    expect(img).toMatchObject({ width: 400, height: 600 });
  });

  it('keeps PNG and lossless WebP lossless, and lossy WebP lossy, each without its metadata', async () => {
    const pixels = sharp({ create: { width: 32, height: 24, channels: 3, background: '#1188cc' } }).withExif({ IFD3: GPS });
    const pngIn = await pixels.clone().png().toBuffer();
    const losslessIn = await pixels.clone().webp({ lossless: true }).toBuffer();
    const lossyIn = await pixels.clone().webp({ quality: 80 }).toBuffer();
    expect(hasGpsPointer((await sharp(losslessIn).metadata()).exif)).toBe(true);

    const pngOut = (await uploadOne(pngIn, 'plan.png', 'image/png')).bytes;
    const losslessOut = (await uploadOne(losslessIn, 'plan.webp', 'image/webp')).bytes;
    const lossyOut = (await uploadOne(lossyIn, 'crew.webp', 'image/webp')).bytes;
    for (const out of [pngOut, losslessOut, lossyOut]) expect((await sharp(out).metadata()).exif).toBeUndefined();
    expect((await sharp(pngOut).metadata()).format).toBe('png');
    // Lossless stays pixel for pixel what was sent.
    const raw = (b: Buffer) => sharp(b).removeAlpha().raw().toBuffer();
    expect((await raw(pngOut)).equals(await raw(pngIn))).toBe(true);
    expect((await raw(losslessOut)).equals(await raw(losslessIn))).toBe(true);
    expect(isLosslessWebp(losslessOut)).toBe(true);
    expect(isLosslessWebp(lossyOut)).toBe(false);
  });
});

describe('a storage failure in the middle of an upload', () => {
  it('removes the images already stored and records no report', async () => {
    let puts = 0;
    // The local storage, except that its third write (the second image's original) fails.
    const failingOnThirdPut = (dir: string): FileStorage => {
      const local = createLocalStorage(dir);
      return {
        ...local,
        put: async (key, body, options) => {
          if (++puts === 3) throw new Error('disk full');
          return local.put(key, body, options);
        },
      };
    };
    const s = await createTestApp({}, { storage: failingOnThirdPut });
    try {
      const staff = await actor(s, 'admin');
      const owner = await actor(s, 'client');
      const project = await createProjectVia(s, staff, owner.id);
      const body = await multipart(fieldsFor(project), [image(jpeg, 'one.jpg'), image(png, 'two.png', 'image/png')]);
      const res = await s.app.inject({ method: 'POST', url: '/api/reports', headers: { ...staff.headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(500);
      expect(res.json().message).not.toContain('disk full');
      expect(puts).toBe(3);
      expect(readdirSync(s.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())).toEqual([]);
      expect(await s.database.db.select().from(progressReports)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
