import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { createProjectVia, multipart, type Actor } from '../../../tests/helpers/portal.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { STORED_FILE_POLICY } from '../../plugins/security-headers.ts';
import { appWithAdminAndClient } from '../../../tests/helpers/actors.ts';

// Decision 114: signed-in files are not kept by the browser (no-store), and signing out also tells
// the browser to drop its cache (Clear-Site-Data), for a shared computer.

let t: TestApp;
let admin: Actor;
let client: Actor;
beforeAll(async () => ({ t, admin, client } = await appWithAdminAndClient()));
afterAll(() => t?.close());

describe('signed-in files and sign-out', () => {
  it('serves message attachments and report images as private, no-store, under the stored-file policy', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000000' } }).png().toBuffer();
    const body = multipartBody({}, { filename: 'site.png', contentType: 'image/png', data: png });
    const file = (await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...client.headers, ...body.headers }, payload: body.payload })).json().file;
    const attachment = await t.app.inject({ method: 'GET', url: file.url, headers: client.headers });
    expect(attachment.statusCode).toBe(200);
    expect(attachment.headers['cache-control']).toBe('private, no-store');
    // Opened in a tab, the browser's image viewer may style itself; nothing may run (sandbox).
    expect(attachment.headers['content-security-policy']).toBe(STORED_FILE_POLICY);
    expect(STORED_FILE_POLICY).toContain('sandbox');
    expect(STORED_FILE_POLICY).not.toContain('script-src');

    const project = await createProjectVia(t, admin, client.id, { name: 'Cache' });
    const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#445566' } }).jpeg().toBuffer();
    const report = await multipart(
      { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Dug', progress: 'Some' },
      [{ field: 'images', name: 'a.jpg', type: 'image/jpeg', data: jpeg }],
    );
    const created = (await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...report.headers }, payload: report.payload })).json().report;
    const imageId = created.images[0]._id;
    for (const suffix of ['', '/thumbnail']) {
      const image = await t.app.inject({ method: 'GET', url: `/api/reports/${created._id}/images/${imageId}${suffix}`, headers: client.headers });
      expect(image.statusCode).toBe(200);
      expect(image.headers['cache-control']).toBe('private, no-store');
      expect(image.headers['content-security-policy']).toBe(STORED_FILE_POLICY);
    }
  });

  it('clears the browser cache when signing out', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: client.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['clear-site-data']).toBe('"cache"');
  });
});
