import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displaySafeName, hasDeceptiveCharacters } from '../../common/file-names.ts';
import { messageFiles } from '../db/schema/messages.ts';
import { reportImages } from '../db/schema/reports.ts';
import { contentDisposition } from './content-disposition.ts';
import { cleanFileName } from './file-names.ts';
import { multipartBody } from '../../tests/helpers/multipart.ts';
import { createProjectVia, multipart, type Actor } from '../../tests/helpers/portal.ts';
import type { TestApp } from '../../tests/helpers/test-app.ts';
import { appWithAdminAndClient } from '../../tests/helpers/actors.ts';

// Decision 112: no bidirectional control or other control or invisible character reaches a stored
// name, a shown name or a Content-Disposition header.

const DECEPTIVE = [
  '\u202e', '\u202a', '\u202b', '\u202c', '\u202d', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\ufeff',
];

let t: TestApp;
let admin: Actor;
let client: Actor;
beforeAll(async () => ({ t, admin, client } = await appWithAdminAndClient()));
afterAll(() => t?.close());

const clean = (s: string) => !hasDeceptiveCharacters(s) && !DECEPTIVE.some((c) => s.includes(c));

describe('file names', () => {
  it('lose every direction, control and invisible character', () => {
    for (const c of DECEPTIVE) expect(displaySafeName(`invoice${c}gnp.exe.png`)).toBe('invoicegnp.exe.png');
    expect(displaySafeName('a\u0007b\u009bc')).toBe('abc');
    const header = contentDisposition('attachment', 'invoice\u202egnp.exe.png');
    expect(header).toBe(`attachment; filename="invoicegnp.exe.png"; filename*=UTF-8''invoicegnp.exe.png`);
    expect(decodeURIComponent(contentDisposition('inline', 'r\u00e9sum\u00e9\u2067.pdf').split("''")[1])).toBe('r\u00e9sum\u00e9.pdf');
  });

  it('of message attachments are stored and sent without them', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000000' } }).png().toBuffer();
    const body = multipartBody({}, { filename: 'invoice\u202egnp.exe.png', contentType: 'image/png', data: png });
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...client.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    expect(JSON.stringify(res.json())).not.toContain('\u202e');
    const [row] = await t.database.db.select().from(messageFiles);
    expect(row.name).toBe('invoicegnp.exe.png');
  });

  it('of vendor documents and report images are cleaned the same way before they are stored', () => {
    expect(cleanFileName('C:\\scans\\iso\u2067 9001\u200f.pdf', 'document')).toBe('iso 9001.pdf');
    expect(cleanFileName('\u202e\u2066', 'document')).toBe('document');
    expect(cleanFileName('site\u202eGPJ.exe.jpg', 'image-1')).toBe('siteGPJ.exe.jpg');
  });

  it('too long for storage lose the end of their stem and keep their start and extension', () => {
    const long = `Site visit ${'x'.repeat(300)} final.jpeg`;
    const cleaned = cleanFileName(long, 'image-1');
    expect([...cleaned]).toHaveLength(200);
    expect(cleaned.startsWith('Site visit ')).toBe(true);
    expect(cleaned.endsWith('x.jpeg')).toBe(true);
    // Counted in characters: an emoji is never cut in half.
    const emoji = cleanFileName(`${'\u{1F4F7}'.repeat(250)}.pdf`, 'document');
    expect(emoji).toBe(`${'\u{1F4F7}'.repeat(196)}.pdf`);
  });

  it('of report images are stored and sent without them', async () => {
    const project = await createProjectVia(t, admin, client.id, { name: 'Names' });
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#445566' } }).jpeg().toBuffer();
    const body = await multipart(
      { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Dug', progress: 'Some' },
      [{ field: 'images', name: 'site\u202eGPJ.exe.jpg', type: 'image/jpeg', data: jpeg }],
    );
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(201);
    const [image] = await t.database.db.select().from(reportImages);
    expect(image.originalName).toBe('siteGPJ.exe.jpg');
    const reportId = res.json().report._id as string;
    const file = await t.app.inject({ method: 'GET', url: `/api/reports/${reportId}/images/${image.id}`, headers: admin.headers });
    expect(file.statusCode).toBe(200);
    expect(clean(String(file.headers['content-disposition']))).toBe(true);
    expect(String(file.headers['content-disposition'])).not.toMatch(/%E2%80%AE/i);
    expect((await t.database.db.select().from(reportImages).where(eq(reportImages.id, image.id)))[0].originalName).toBe('siteGPJ.exe.jpg');
  });
});
