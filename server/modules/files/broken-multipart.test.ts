import { readdirSync } from 'node:fs';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageFiles } from '../../db/schema/messages.ts';
import { progressReports, reportImages } from '../../db/schema/reports.ts';
import { vendorApplications, vendorDocuments } from '../../db/schema/vendors.ts';
import { formToken } from '../../../tests/helpers/forms.ts';
import { createProjectVia, makeImage, type Actor } from '../../../tests/helpers/portal.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { appWithAdminAndClient } from '../../../tests/helpers/actors.ts';

// Malformed multipart bodies on every upload route answer 400 or 413 in the error shape and leave
// no file in storage and no row (issue 16: they answered 500).

let t: TestApp;
let admin: Actor;
let client: Actor;
let projectId: string;
let projectCode: string;
let jpeg: Buffer;
let ip = 1;

beforeAll(async () => {
  ({ t, admin, client } = await appWithAdminAndClient());
  const project = await createProjectVia(t, admin, client.id, { name: 'Multipart' });
  projectId = project._id;
  projectCode = project.code;
  jpeg = await makeImage('jpeg', { width: 64, height: 48 });
});
afterAll(() => t?.close());

const B = 'xBoundary1234';
const field = (name: string, value: string, boundary = B) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = (name: string, filename: string, boundary = B) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/jpeg\r\n\r\n`;

type Broken = { name: string; body: (fields: string, fileField: string, boundary?: string) => Buffer; boundary?: string };
const BROKEN: Broken[] = [
  { name: 'no closing boundary', body: (fields, f) => Buffer.concat([Buffer.from(fields + fileHead(f, 'a.jpg')), jpeg]) },
  { name: 'a file cut off mid-way', body: (fields, f) => Buffer.concat([Buffer.from(fields + fileHead(f, 'a.jpg')), jpeg.subarray(0, 100)]) },
  {
    name: 'garbage after the part headers',
    body: (fields, f) => Buffer.concat([Buffer.from(fields), Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${f}"; filename="a.jpg"\r\n\u0001\u0002 not a header `), jpeg]),
  },
  { name: 'garbage instead of a part', body: (fields) => Buffer.from(`${fields}--${B}\r\n\u0000\u0000\u0000garbage garbage\r\n`) },
  {
    name: 'a 5,000-character boundary',
    boundary: 'b'.repeat(5000),
    body: (_fields, f, boundary) => Buffer.concat([Buffer.from(fileHead(f, 'a.jpg', boundary)), jpeg, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  },
];

async function nothingLeft() {
  const files = readdirSync(t.uploadsDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  expect(files.map((f) => f.name)).toEqual([]);
  const db = t.database.db;
  for (const table of [messageFiles, progressReports, reportImages, vendorApplications, vendorDocuments]) {
    expect((await db.select({ n: count() }).from(table))[0].n).toBe(0);
  }
}

function expectRefused(res: { statusCode: number; json(): { success: boolean; code: string; message: string } }) {
  expect([400, 413]).toContain(res.statusCode);
  expect(res.json()).toMatchObject({ success: false });
  expect(['BAD_REQUEST', 'VALIDATION_FAILED', 'PAYLOAD_TOO_LARGE']).toContain(res.json().code);
}

describe.each(BROKEN)('a multipart body with $name', (broken) => {
  const boundary = broken.boundary ?? B;
  const contentType = { 'content-type': `multipart/form-data; boundary=${boundary}` };

  it('is refused on the message upload, leaving nothing', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...client.headers, ...contentType }, payload: broken.body('', 'file', boundary) });
    expectRefused(res);
    await nothingLeft();
  });

  it('is refused on the report upload, leaving nothing', async () => {
    const fields = [field('date', '2026-11-20'), field('projectId', projectId), field('projectCode', projectCode), field('project', 'Multipart'), field('tasks', 'Dug'), field('progress', 'Some')].join('');
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...contentType }, payload: broken.body(fields, 'images', boundary) });
    expectRefused(res);
    await nothingLeft();
  });

  it('is refused on the vendor registration, leaving nothing', async () => {
    const fields = field('formToken', await formToken(t, 'vendor')) + field('homepageUrl', '') + field('companyName', 'Acme');
    const res = await t.app.inject({ method: 'POST', url: '/api/vendors/applications', remoteAddress: `192.0.2.${ip++}`, headers: contentType, payload: broken.body(fields, 'certificationsFiles', boundary) });
    expectRefused(res);
    await nothingLeft();
  });
});
