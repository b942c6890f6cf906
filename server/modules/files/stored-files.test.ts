import { existsSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorage } from '../../storage/storage.ts';
import { createLocalStorage } from '../../storage/local-storage.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, createProjectVia, makeImage, multipart, type Actor } from '../../../tests/helpers/portal.ts';
import { UNNAMED_FILE_GRACE_MS, sweepUnnamedFiles } from './stored-files.ts';

// Stored files no row names (issue 22, decision 249): after seven kill -9 rounds one stored file had
// no row and stayed for ever. The sweep removes such files once an hour old; named files stay.

let t: TestApp;
let admin: Actor;
/** While set, the storage refuses to delete: a process killed between a deletion's commit and its file removal. */
let deletesFail = false;

beforeAll(async () => {
  t = await createTestApp({}, {
    storage: (dir): FileStorage => {
      const local = createLocalStorage(dir);
      return {
        ...local,
        list: local.list,
        listOlderThan: local.listOlderThan,
        async delete(key) {
          if (deletesFail) throw new Error('killed before the file was removed');
          await local.delete(key);
        },
      };
    },
  });
  admin = await actor(t, 'admin');
});
afterAll(() => t?.close());

/** Sets a stored file's last write `ageMs` before the app's clock. */
function age(key: string, ageMs: number) {
  const at = new Date(t.clock.now().getTime() - ageMs);
  utimesSync(path.join(t.uploadsDir, key), at, at);
}
const exists = (key: string) => existsSync(path.join(t.uploadsDir, key));

async function projectWithReport() {
  const project = await createProjectVia(t, admin, (await actor(t, 'client')).id);
  const body = await multipart(
    { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Survey', progress: 'Started' },
    [{ field: 'images', name: 'site.png', type: 'image/png', data: await makeImage('png') }],
  );
  const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(201);
  return project;
}

const keys = async () => {
  const all: string[] = [];
  for await (const key of t.app.storage.list!()) all.push(key);
  return all.sort();
};

describe('stored files no row names', () => {
  it('are removed once an hour old; younger ones and every named file stay', async () => {
    await projectWithReport();
    const named = await keys();
    expect(named).toHaveLength(2);
    await t.app.storage.put('messages/zz/orphan-of-a-killed-upload', Buffer.from('bytes'));
    await t.app.storage.put('reports/none/young-orphan.png', Buffer.from('bytes'));
    for (const key of named) age(key, 5 * UNNAMED_FILE_GRACE_MS);
    age('messages/zz/orphan-of-a-killed-upload', UNNAMED_FILE_GRACE_MS + 1000);
    age('reports/none/young-orphan.png', UNNAMED_FILE_GRACE_MS - 60_000);

    expect(await sweepUnnamedFiles(t.app)).toBe(1);
    expect(exists('messages/zz/orphan-of-a-killed-upload')).toBe(false);
    expect(exists('reports/none/young-orphan.png')).toBe(true);
    for (const key of named) expect(exists(key)).toBe(true);

    // An hour on (fake clock), the young one goes too.
    t.clock.advance(2 * 60_000);
    expect(await sweepUnnamedFiles(t.app)).toBe(1);
    expect(await keys()).toEqual(named);
  });

  it('a deletion whose file removal died: rows gone at once, files removed by the sweep after the hour', async () => {
    const before = await keys();
    const project = await projectWithReport();
    const files = (await keys()).filter((k) => !before.includes(k));
    expect(files).toHaveLength(2);
    deletesFail = true;
    try {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/projects/${project._id}`, headers: admin.headers, payload: { confirmName: project.name } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().deleted.files).toBe(2);
    } finally {
      deletesFail = false;
    }
    for (const key of files) expect(exists(key)).toBe(true);
    for (const key of files) age(key, UNNAMED_FILE_GRACE_MS - 1000);
    expect(await sweepUnnamedFiles(t.app)).toBe(0);
    t.clock.advance(2000);
    expect(await sweepUnnamedFiles(t.app)).toBe(2);
    for (const key of files) expect(exists(key)).toBe(false);
  });
});
