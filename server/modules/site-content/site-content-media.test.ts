import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { mediaUsages } from '../../db/schema/media.ts';
import { siteContentDrafts, siteContentPublished, siteContentSchedules } from '../../db/schema/site-content.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import type { MediaItem } from '../../../common/schemas/media.ts';
import { flatImage, uploadMedia } from '../../../tests/helpers/media.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { samplePdf } from '../../../tests/helpers/sample-files.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { staff } from '../../../tests/helpers/site-content.ts';
import type { Actor } from '../../../tests/helpers/portal.ts';
import { publishDueSchedules } from './site-content.service.ts';

// Issue 24, decision 291: the website's image fields name media items ('media/<uuid>'). A draft naming
// a missing item is refused at its field; a publish (by hand or at its time) records where each item
// is used, so the library refuses to delete it; a due schedule whose image was deleted since is
// withdrawn with its reason instead of publishing a broken picture.

let t: TestApp;
let editor: Actor;
beforeAll(async () => {
  t = await createTestApp();
  editor = await staff(t, 'editor', 'Ada Editor');
});
afterAll(() => t?.close());

const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: editor.headers, ...(payload ? { payload } : {}) });
const draftOf = async (section: string) => (await t.database.db.select().from(siteContentDrafts).where(eq(siteContentDrafts.section, section)))[0];
const publishedOf = async (section: string) => (await t.database.db.select().from(siteContentPublished).where(eq(siteContentPublished.section, section)))[0];

async function uploaded(alt: string): Promise<MediaItem> {
  const res = await uploadMedia(t, editor.headers, { filename: 'portrait.jpg', contentType: 'image/jpeg', data: await flatImage('jpeg', 400, 400) }, alt);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item;
}

/** The team with its first member's photo replaced by `image`. */
const teamWith = (image: string) => ({ members: SECTION_SEEDS.team.members.map((m, i) => (i === 0 ? { ...m, image } : m)) });

async function saveTeam(image: string) {
  const { version } = await draftOf('team');
  return call('PUT', '/site-content/sections/team/draft', { version, document: teamWith(image) });
}

describe('image fields', () => {
  it('accept a starting image or a media item, and refuse anything else at the field', async () => {
    const res = await saveTeam('https://elsewhere.example/face.jpg');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'document.members.0.image', message: 'Choose an image from the media library' }]);
    expect((await saveTeam('team/projects-manager')).statusCode).toBe(200);
  });

  it('refuse a draft naming a media item that is not in the library, at that field, storing nothing', async () => {
    const before = await draftOf('team');
    const res = await saveTeam('media/00000000-0000-4000-8000-000000000000');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().details).toEqual([{ field: 'document.members.0.image', message: 'This image is no longer in the media library: choose another' }]);
    expect(await draftOf('team')).toEqual(before);
  });

  it('GET /api/media/:id answers one item; the list searches alt texts', async () => {
    const item = await uploaded('Welder at the fabrication yard, 100% focused');
    const one = await call('GET', `/media/${item._id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().item).toMatchObject({ _id: item._id, altText: item.altText, usages: [] });
    expect((await call('GET', '/media/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const found = await call('GET', '/media?q=WELDER');
    expect(found.json().items.map((i: MediaItem) => i._id)).toEqual([item._id]);
    // The search is a plain substring: '%' matches itself, not everything.
    expect((await call('GET', '/media?q=100%25')).json().items).toHaveLength(1);
    expect((await call('GET', '/media?q=%25crane')).json().items).toHaveLength(0);
  });
});

describe('publishing records where each image is used', () => {
  it('a publish marks the item used by "Website: Team"; the library refuses to delete it (409) until a publish stops using it', async () => {
    const photo = await uploaded('Ada Obi, chief executive, smiling');
    expect((await saveTeam(`media/${photo._id}`)).statusCode).toBe(200);
    // A draft is not a use: visitors do not see it.
    expect(await t.database.db.select().from(mediaUsages).where(eq(mediaUsages.mediaId, photo._id))).toEqual([]);
    const published = await call('POST', '/site-content/sections/team/publish', { version: (await draftOf('team')).version });
    expect(published.statusCode, published.body).toBe(200);

    expect((await call('GET', `/media/${photo._id}`)).json().item.usages).toEqual([{ usedIn: 'site-content:team', label: 'Website: Team' }]);
    const refused = await call('DELETE', `/media/${photo._id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This image is used in Website: Team. Remove it there first.');

    // The starting photo back, published: the item is free again and may go.
    expect((await saveTeam(SECTION_SEEDS.team.members[0].image)).statusCode).toBe(200);
    expect((await call('POST', '/site-content/sections/team/publish', { version: (await draftOf('team')).version })).statusCode).toBe(200);
    expect((await call('GET', `/media/${photo._id}`)).json().item.usages).toEqual([]);
    expect((await call('DELETE', `/media/${photo._id}`)).statusCode).toBe(200);
  });

  it('a scheduled publish records the usage at its time', async () => {
    const photo = await uploaded('Certificate of quality management, framed');
    const certificates = SECTION_SEEDS.certificates.certificates.map((c, i) => (i === 1 ? { ...c, image: `media/${photo._id}` } : c));
    const saved = await call('PUT', '/site-content/sections/certificates/draft', {
      version: (await draftOf('certificates')).version,
      document: { ...SECTION_SEEDS.certificates, certificates },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const publishAt = new Date(t.clock.now().getTime() + 60 * 60_000).toISOString();
    expect((await call('PUT', '/site-content/sections/certificates/schedule', { version: saved.json().draft.version, publishAt })).statusCode).toBe(200);
    expect((await call('GET', `/media/${photo._id}`)).json().item.usages).toEqual([]);

    t.clock.advance(61 * 60_000);
    expect(await publishDueSchedules(t.app)).toBe(1);
    expect((await publishedOf('certificates')).document).toMatchObject({ certificates: [{}, { image: `media/${photo._id}` }, {}] });
    expect((await call('GET', `/media/${photo._id}`)).json().item.usages).toEqual([{ usedIn: 'site-content:certificates', label: 'Website: Certificates' }]);
    expect((await call('DELETE', `/media/${photo._id}`)).statusCode).toBe(409);
  });

  it('a due schedule whose image was deleted since is withdrawn with its reason; visitors keep the published page', async () => {
    const photo = await uploaded('Gallery: the jetty at dusk');
    const items = SECTION_SEEDS.gallery.items.map((g, i) => (i === 2 ? { ...g, image: `media/${photo._id}` } : g));
    const saved = await call('PUT', '/site-content/sections/gallery/draft', { version: (await draftOf('gallery')).version, document: { items } });
    expect(saved.statusCode, saved.body).toBe(200);
    const publishAt = new Date(t.clock.now().getTime() + 30 * 60_000).toISOString();
    expect((await call('PUT', '/site-content/sections/gallery/schedule', { version: saved.json().draft.version, publishAt })).statusCode).toBe(200);
    // Scheduled, not yet published: nothing uses it, so the library lets it go.
    expect((await call('DELETE', `/media/${photo._id}`)).statusCode).toBe(200);
    const before = await publishedOf('gallery');

    t.clock.advance(31 * 60_000);
    expect(await publishDueSchedules(t.app)).toBe(0);
    expect(await publishedOf('gallery')).toEqual(before);
    const [schedule] = await t.database.db.select().from(siteContentSchedules).where(eq(siteContentSchedules.section, 'gallery'));
    expect(schedule.status).toBe('cancelled');
    expect((await call('GET', '/site-content/sections/gallery')).json().schedule).toBeNull();
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'content.schedule-withdrawn'), eq(auditEvents.entityId, 'gallery')));
    expect(event.after).toEqual({
      reason: 'Not published: an image it shows was deleted from the media library after it was scheduled (items.2.image).',
      missingMedia: [photo._id],
    });
    // The draft still names it: the next save or publish is refused at that field.
    const publish = await call('POST', '/site-content/sections/gallery/publish', { version: (await draftOf('gallery')).version });
    expect(publish.statusCode).toBe(400);
    expect(publish.json().details).toEqual([{ field: 'document.items.2.image', message: 'This image is no longer in the media library: choose another' }]);
  });
});

describe("a certificate's optional PDF (decision 295)", () => {
  async function uploadedPdf(title: string): Promise<MediaItem> {
    const { payload, headers } = multipartBody({ altText: title, kind: 'pdf' }, { filename: 'certificate.pdf', contentType: 'application/pdf', data: samplePdf(title) });
    const res = await t.app.inject({ method: 'POST', url: '/api/media', headers: { ...editor.headers, ...headers }, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().item;
  }
  const certificatesWith = (first: object) => ({
    ...SECTION_SEEDS.certificates,
    certificates: SECTION_SEEDS.certificates.certificates.map((c, i) => (i === 0 ? { ...c, ...first } : c)),
  });
  async function saveCertificates(first: object) {
    const { version } = await draftOf('certificates');
    return call('PUT', '/site-content/sections/certificates/draft', { version, document: certificatesWith(first) });
  }

  it('takes a PDF of the library only: an image there, a PDF as the picture, or another address are refused at the field', async () => {
    const photo = await uploaded('Framed certificate on the office wall');
    const pdf = await uploadedPdf('ISO 45001 certificate');
    const before = await draftOf('certificates');

    const imageAsPdf = await saveCertificates({ pdf: `media/${photo._id}` });
    expect(imageAsPdf.statusCode).toBe(400);
    expect(imageAsPdf.json().details).toEqual([{ field: 'document.certificates.0.pdf', message: 'This is an image: choose a PDF here' }]);
    const pdfAsImage = await saveCertificates({ image: `media/${pdf._id}` });
    expect(pdfAsImage.statusCode).toBe(400);
    expect(pdfAsImage.json().details).toEqual([{ field: 'document.certificates.0.image', message: 'This is a PDF: choose an image here' }]);
    const elsewhere = await saveCertificates({ pdf: 'https://elsewhere.example/cert.pdf' });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().details).toEqual([{ field: 'document.certificates.0.pdf', message: 'Choose a PDF from the media library' }]);
    const gone = await saveCertificates({ pdf: 'media/00000000-0000-4000-8000-000000000000' });
    expect(gone.json().details).toEqual([{ field: 'document.certificates.0.pdf', message: 'This PDF is no longer in the media library: choose another' }]);
    expect(await draftOf('certificates')).toEqual(before);

    // Left out, it is simply no PDF; a PDF of the library is taken.
    expect((await saveCertificates({})).statusCode).toBe(200);
    expect((await saveCertificates({ pdf: `media/${pdf._id}` })).statusCode).toBe(200);
  });

  it('a publish records its use (the PDF cannot be deleted) and gives pages its address, size and title', async () => {
    const pdf = await uploadedPdf('Environmental management certificate');
    expect((await saveCertificates({ pdf: `media/${pdf._id}` })).statusCode).toBe(200);
    const published = await call('POST', '/site-content/sections/certificates/publish', { version: (await draftOf('certificates')).version });
    expect(published.statusCode, published.body).toBe(200);
    expect((await call('GET', `/media/${pdf._id}`)).json().item.usages).toEqual([{ usedIn: 'site-content:certificates', label: 'Website: Certificates' }]);
    expect((await call('DELETE', `/media/${pdf._id}`)).statusCode).toBe(409);

    await t.app.publishedContent.reload(['certificates']);
    expect(t.app.publishedContent.get('certificates').certificates[0]?.pdf).toBe(`media/${pdf._id}`);
    expect(t.app.publishedContent.media()[`media/${pdf._id}`]?.document).toEqual({ url: `/api/media/${pdf._id}/document.pdf`, bytes: pdf.bytes, title: 'Environmental management certificate' });

    // Published without it, the PDF is free to go.
    expect((await saveCertificates({})).statusCode).toBe(200);
    expect((await call('POST', '/site-content/sections/certificates/publish', { version: (await draftOf('certificates')).version })).statusCode).toBe(200);
    expect((await call('DELETE', `/media/${pdf._id}`)).statusCode).toBe(200);
  });
});
