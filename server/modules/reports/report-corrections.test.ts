import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_IMAGES_MAX } from '../../../common/schemas/reports.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { progressReports, reportImages, reportVersions } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { pdfText } from '../../../tests/helpers/pdf-text.ts';
import { actor, createProjectVia, makeImage, multipart, type Actor, type MultipartFile } from '../../../tests/helpers/portal.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { REPORT_NOTIFICATION_KIND } from './report-mail.ts';

// Issue 22: staff correct a progress report; the replaced text is kept as a version, the client
// reads the current one ('Corrected on'), and is mailed again only when staff ask.

let t: TestApp;
let admin: Actor;
let client: Actor;
let other: Actor;
let project: { _id: string; code: string; name: string };
let png: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin', 'Kemi Staff');
  client = await actor(t, 'client', 'Obinna Client');
  other = await actor(t, 'client');
  project = await createProjectVia(t, admin, client.id, { name: 'Warri depot' });
  png = await makeImage('png');
});
afterAll(() => t?.close());

const image = (name: string, data = png): MultipartFile => ({ field: 'images', name, type: 'image/png', data });

async function newReport(files: MultipartFile[] = [image('north.png'), image('south.png')]) {
  const body = await multipart({ date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Piling', progress: 'Tpyo in progress' }, files);
  const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode).toBe(201);
  return res.json().report as { _id: string; images: Array<{ _id: string; name: string }> };
}

async function correct(id: string, fields: Record<string, string>, files: MultipartFile[] = [], headers: Record<string, string> = admin.headers) {
  const body = await multipart(fields, files);
  return t.app.inject({ method: 'PATCH', url: `/api/reports/${id}`, headers: { ...headers, ...body.headers }, payload: body.payload });
}

const versionsOf = (id: string, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'GET', url: `/api/reports/${id}/versions`, headers });
const storedFiles = () => readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name).sort();
const reportMails = async () => (await t.database.db.select().from(mailOutbox)).filter((m) => m.kind === REPORT_NOTIFICATION_KIND);

/** Everything a correction could change: the row, its images, its versions and the stored files. */
async function snapshot(id: string) {
  return {
    report: (await t.database.db.select().from(progressReports).where(eq(progressReports.id, id)))[0],
    images: await t.database.db.select().from(reportImages).where(eq(reportImages.reportId, id)),
    versions: await t.database.db.select().from(reportVersions).where(eq(reportVersions.reportId, id)),
    files: storedFiles(),
  };
}

describe('PATCH /api/reports/:id', () => {
  it('corrects text and images, keeps the earlier version for staff, and the client reads the current text with its correction date', async () => {
    const report = await newReport();
    t.clock.advance(3_600_000);
    const res = await correct(report._id, { progress: 'Typo fixed in progress', removeImages: report.images[0]._id }, [image('east.png')]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.clientMailed).toBe(false);
    expect(body.report).toMatchObject({ progress: 'Typo fixed in progress', tasks: 'Piling', version: 2, correctedAt: t.clock.now().toISOString() });
    expect(body.report.images.map((i: { name: string }) => i.name)).toEqual(['south.png', 'east.png']);
    // The removed image's files are gone from storage; its address answers 404.
    expect(storedFiles().some((f) => f.startsWith(report.images[0]._id))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: `/api/reports/${report._id}/images/${report.images[0]._id}`, headers: admin.headers })).statusCode).toBe(404);

    const listed = await t.app.inject({ method: 'GET', url: `/api/reports/project/${project._id}`, headers: client.headers });
    expect(listed.json().reports.find((r: { _id: string }) => r._id === report._id)).toMatchObject({ progress: 'Typo fixed in progress', correctedAt: t.clock.now().toISOString() });

    const history = await versionsOf(report._id);
    expect(history.statusCode).toBe(200);
    expect(history.json().current).toEqual({ version: 2, writtenBy: 'Kemi Staff', writtenAt: t.clock.now().toISOString() });
    expect(history.json().versions).toEqual([
      expect.objectContaining({ version: 1, writtenBy: 'Kemi Staff', progress: 'Tpyo in progress', tasks: 'Piling', imageNames: ['north.png', 'south.png'] }),
    ]);
  });

  it('serves the current version as the PDF', async () => {
    const report = await newReport([]);
    expect((await correct(report._id, { progress: 'Corrected figure: 45 percent' })).statusCode).toBe(200);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/reports/${report._id}/pdf`, headers: client.headers });
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Corrected figure: 45 percent');
    expect(text).not.toContain('Tpyo');
    // Lagos is UTC+1 all year: the fake clock's instant, an hour on, with its zone.
    const lagos = new Date(t.clock.now().getTime() + 3_600_000);
    expect(text).toContain(`Corrected on: ${lagos.getUTCDate()} Nov 2026, ${String(lagos.getUTCHours()).padStart(2, '0')}:${String(lagos.getUTCMinutes()).padStart(2, '0')} WAT`);
  });

  it('mails the client about a correction only when staff tick "Tell the client", once, and never against their setting', async () => {
    const report = await newReport([]);
    const before = (await reportMails()).length;
    expect((await correct(report._id, { tasks: 'Piling and capping' })).json().clientMailed).toBe(false);
    expect((await reportMails()).length).toBe(before);
    const told = await correct(report._id, { tasks: 'Piling, capping', notifyClient: 'true' });
    expect(told.json().clientMailed).toBe(true);
    const mails = await reportMails();
    expect(mails.length).toBe(before + 1);
    expect(mails.at(-1)).toMatchObject({ subject: 'Progress report corrected for Warri depot' });
    expect(mails.at(-1)!.text).not.toContain('Piling, capping');

    await t.database.db.update(users).set({ reportMail: false }).where(eq(users.id, client.id));
    const off = await correct(report._id, { tasks: 'Piling only', notifyClient: 'true' });
    expect(off.json().clientMailed).toBe(false);
    expect((await reportMails()).length).toBe(before + 1);
    await t.database.db.update(users).set({ reportMail: true }).where(eq(users.id, client.id));
  });

  it.each([
    [{ tasks: '' }, 'tasks'],
    [{ progress: '   ' }, 'progress'],
    [{ date: '20/11/2026' }, 'date'],
    [{ team: 'A\nB' }, 'team'],
    [{ projectId: '00000000-0000-4000-8000-000000000000' }, ''],
    [{ removeImages: 'not-a-uuid' }, 'removeImages.0'],
    [{ removeImages: '00000000-0000-4000-8000-000000000000' }, 'removeImages'],
  ])('refuses %j with 400 (%s) and stores nothing, the added image included', async (fields, field) => {
    const report = await newReport();
    const before = await snapshot(report._id);
    const res = await correct(report._id, fields, [image('added.png')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    if (field) expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await snapshot(report._id)).toEqual(before);
  });

  it('refuses a correction that changes nothing, and a file that is not an image, storing nothing', async () => {
    const report = await newReport();
    const before = await snapshot(report._id);
    const empty = await correct(report._id, { notifyClient: 'true' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Nothing to change: send at least one field');
    const notImage = await correct(report._id, { progress: 'x' }, [{ field: 'images', name: 'notes.png', type: 'image/png', data: Buffer.from('plain text') }]);
    expect(notImage.statusCode).toBe(415);
    const json = await t.app.inject({ method: 'PATCH', url: `/api/reports/${report._id}`, headers: admin.headers, payload: { progress: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(await snapshot(report._id)).toEqual(before);
  });

  it(`refuses to carry more than ${REPORT_IMAGES_MAX} images, storing nothing`, async () => {
    const report = await newReport(Array.from({ length: REPORT_IMAGES_MAX }, (_, i) => image(`site-${i}.png`)));
    const before = await snapshot(report._id);
    const res = await correct(report._id, { progress: 'x' }, [image('one-too-many.png')]);
    expect(res.statusCode).toBe(413);
    expect(await snapshot(report._id)).toEqual(before);
    // Removing one makes room for one.
    expect((await correct(report._id, { removeImages: report.images[0]._id }, [image('swap.png')])).statusCode).toBe(200);
  });

  it('answers 404 for a missing report and 403 to clients, whose report stays as it was', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await correct(missing, { progress: 'x' })).statusCode).toBe(404);
    expect((await versionsOf(missing)).statusCode).toBe(404);
    const report = await newReport([]);
    const before = await snapshot(report._id);
    for (const who of [client, other]) {
      expect((await correct(report._id, { progress: 'Client rewrite' }, [], who.headers)).statusCode).toBe(403);
      expect((await versionsOf(report._id, who.headers)).statusCode).toBe(403);
    }
    expect(await snapshot(report._id)).toEqual(before);
  });

  it('files two corrections that arrive at once as two versions, one after the other', async () => {
    const report = await newReport([]);
    const [a, b] = await meetingAtLockedRow(t, 'progress_reports', report._id, 2, () =>
      Promise.all([correct(report._id, { progress: 'Writer A' }), correct(report._id, { progress: 'Writer B' })]),
    );
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().report.version, b.json().report.version].sort()).toEqual([2, 3]);
    const history = (await versionsOf(report._id)).json();
    expect(history.current.version).toBe(3);
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const last = a.json().report.version === 3 ? 'Writer A' : 'Writer B';
    const first = last === 'Writer A' ? 'Writer B' : 'Writer A';
    expect(history.versions[0].progress).toBe(first);
    expect(history.versions[1].progress).toBe('Tpyo in progress');
    expect((await snapshot(report._id)).report.progress).toBe(last);
  });
});
