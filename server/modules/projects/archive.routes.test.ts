import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ARCHIVED, CLIENT_LOGIN_FAILED } from '../../../common/schemas/auth.ts';
import { messages } from '../../db/schema/messages.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports } from '../../db/schema/reports.ts';
import { ganttCharts } from '../../db/schema/timelines.ts';
import { users } from '../../db/schema/users.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { multipartBody } from '../../../tests/helpers/multipart.ts';
import { actor, createProjectVia, makeImage, multipart, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';

// Archive, restore and delete of clients and projects (issue 22, decisions 247-249).

let t: TestApp;
let admin: Actor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin');
});
afterAll(() => t?.close());

const post = (url: string, who: { headers: object } = admin, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: who.headers as Record<string, string>, ...(payload ? { payload } : {}) });
const del = (url: string, payload?: object) => t.app.inject({ method: 'DELETE', url, headers: admin.headers, ...(payload ? { payload } : {}) });
const get = (url: string, who: { headers: object } = admin) => t.app.inject({ method: 'GET', url, headers: who.headers as Record<string, string> });

async function newClient(name?: string) {
  const user = await createUser(t, { role: 'client', name });
  const { cookie } = await signIn(t, user, 'client');
  return { ...user, headers: { cookie, origin: SAME_ORIGIN } };
}

const sendAs = (who: { headers: object }, projectId: string, text = 'Site visit on Monday', attachments: string[] = []) =>
  post('/api/messages', who, { projectId, text, attachments });

async function uploadAs(who: { headers: { cookie: string } }, data: Buffer) {
  const { payload, headers } = multipartBody({}, { filename: 'photo.png', contentType: 'image/png', data });
  const res = await t.app.inject({ method: 'POST', url: '/api/messages/upload', headers: { ...headers, cookie: who.headers.cookie, origin: SAME_ORIGIN }, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().file as { publicId: string };
}

async function reportOn(project: { _id: string; code: string; name: string }) {
  const body = await multipart(
    { date: '2026-11-20', projectId: project._id, projectCode: project.code, project: project.name, tasks: 'Survey', progress: 'Started' },
    [{ field: 'images', name: 'site.png', type: 'image/png', data: await makeImage('png') }],
  );
  return t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
}

const storedFiles = async () => {
  const keys: string[] = [];
  for await (const key of t.app.storage.list!()) keys.push(key);
  return keys;
};

const login = (username: string, password = TEST_PASSWORD) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: SAME_ORIGIN }, payload: { username, password } });

describe('archive and restore a project', () => {
  it('leaves the default lists, stays under Archived, refuses every write with 409 and stores nothing; restore undoes it', async () => {
    const client = await newClient();
    const project = await createProjectVia(t, admin, client.id);
    const timeline = await post('/api/gantt-charts', admin, { projectId: project._id, projectTitle: 'Plan', tasks: [{ task: 'Mobilise', month: '2026-12' }] });
    expect(timeline.statusCode).toBe(201);

    const archived = await post(`/api/projects/${project._id}/archive`);
    expect(archived.statusCode, archived.body).toBe(200);
    expect(archived.json().project.archivedAt).toEqual(t.clock.now().toISOString());

    for (const who of [admin, client]) {
      expect((await get(`/api/projects/client/${client.id}`, who)).json().projects).toEqual([]);
      const listed = (await get(`/api/projects/client/${client.id}?status=archived`, who)).json();
      expect(listed.projects.map((p: { _id: string }) => p._id)).toEqual([project._id]);
      expect(listed.pagination.total).toBe(1);
    }
    // Read-only, with its data.
    expect((await get(`/api/gantt-charts/project/${project._id}`, client)).statusCode).toBe(200);

    const refusals = [
      await sendAs(client, project._id),
      await sendAs(admin, project._id),
      await reportOn(project),
      await post('/api/gantt-charts', admin, { projectId: project._id, projectTitle: 'Plan 2', tasks: [{ task: 'Pile', month: '2027-01' }] }),
      await t.app.inject({ method: 'PUT', url: `/api/gantt-charts/${timeline.json().timeline._id}`, headers: admin.headers, payload: { projectTitle: 'Renamed', tasks: [{ task: 'Pile', month: '2027-01' }] } }),
      await t.app.inject({ method: 'PUT', url: `/api/projects/${project._id}/status`, headers: admin.headers, payload: { status: 'completed' } }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ success: false, code: 'CONFLICT', message: 'This project is archived: restore it before changing it' });
    }
    expect(await t.database.db.select().from(messages).where(eq(messages.projectId, project._id))).toEqual([]);
    expect(await t.database.db.select().from(progressReports).where(eq(progressReports.projectId, project._id))).toEqual([]);
    const charts = await t.database.db.select().from(ganttCharts).where(eq(ganttCharts.projectId, project._id));
    expect(charts.map((c) => c.projectTitle)).toEqual(['Plan']);
    const [row] = await t.database.db.select().from(projects).where(eq(projects.id, project._id));
    expect(row.status).toBe('not-started');
    // The refused report's images were not kept either.
    expect((await storedFiles()).filter((k) => k.startsWith('reports/'))).toEqual([]);

    const restored = await post(`/api/projects/${project._id}/restore`);
    expect(restored.json().project.archivedAt).toBeNull();
    expect((await sendAs(client, project._id)).statusCode).toBe(201);
    expect((await get(`/api/projects/client/${client.id}`, client)).json().projects).toHaveLength(1);
  });

  it("the Archived and All filters show a client only its own projects: another client's are a 404, as without a filter", async () => {
    const mine = await newClient();
    const other = await newClient();
    const own = await createProjectVia(t, admin, mine.id);
    const theirs = await createProjectVia(t, admin, other.id);
    const theirsLive = await createProjectVia(t, admin, other.id);
    for (const p of [own, theirs]) expect((await post(`/api/projects/${p._id}/archive`)).statusCode).toBe(200);

    for (const query of ['', '?status=archived', '?status=all', '?status=archived&sort=name', '?sort=activity']) {
      const res = await get(`/api/projects/client/${other.id}${query}`, mine);
      expect(res.statusCode, query).toBe(404);
      expect(res.body).not.toContain(theirs._id);
      expect(res.body).not.toContain(theirsLive._id);
    }
    const ownArchived = (await get(`/api/projects/client/${mine.id}?status=archived`, mine)).json();
    expect(ownArchived.projects.map((p: { _id: string }) => p._id)).toEqual([own._id]);
    expect((await get(`/api/projects/client/${mine.id}?status=all`, mine)).json().projects.map((p: { _id: string }) => p._id)).toEqual([own._id]);
    // Staff see each client's archived list, and only that client's.
    const staffView = (await get(`/api/projects/client/${other.id}?status=archived`)).json();
    expect(staffView.projects.map((p: { _id: string }) => p._id)).toEqual([theirs._id]);
    expect((await get(`/api/projects/client/${mine.id}?status=bogus`, mine)).statusCode).toBe(400);
  });

  it('answers 404 for a missing project, 403 to a client, 400 for a bad id', async () => {
    const client = await newClient();
    const project = await createProjectVia(t, admin, client.id);
    for (const action of ['archive', 'restore']) {
      expect((await post(`/api/projects/0b9a4e0e-3f3b-4c53-8d0d-5a0f6c7e9d11/${action}`)).statusCode).toBe(404);
      expect((await post(`/api/projects/${project._id}/${action}`, client)).statusCode).toBe(403);
      expect((await post(`/api/projects/not-a-uuid/${action}`)).statusCode).toBe(400);
    }
    expect((await post(`/api/projects/${project._id}/archive`)).statusCode).toBe(200);
    // Again: still archived, still 200, the first archive time kept.
    const again = await post(`/api/projects/${project._id}/archive`);
    expect(again.statusCode).toBe(200);
  });

  it('archive and messages sent at the same moment: each message is stored before the archive or refused, none after', async () => {
    const client = await newClient();
    const project = await createProjectVia(t, admin, client.id);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => sendAs(client, project._id, `Race ${i}`)),
      post(`/api/projects/${project._id}/archive`),
      ...Array.from({ length: 4 }, (_, i) => sendAs(admin, project._id, `Race staff ${i}`)),
    ]);
    const sends = results.filter((_, i) => i !== 4);
    expect(results[4].statusCode).toBe(200);
    for (const res of sends) expect([201, 409], res.body).toContain(res.statusCode);
    const stored = await t.database.db.select().from(messages).where(eq(messages.projectId, project._id));
    expect(stored.length).toBe(sends.filter((r) => r.statusCode === 201).length);
    const [{ archivedAt }] = await t.database.db.select({ archivedAt: projects.archivedAt }).from(projects).where(eq(projects.id, project._id));
    // Every stored message committed before the archive did (the archive waited for its lock).
    for (const m of stored) expect(m.createdAt.getTime()).toBeLessThanOrEqual(archivedAt!.getTime());
    expect((await sendAs(client, project._id)).statusCode).toBe(409);
  });
});

describe('archive and restore a client', () => {
  it('ends its sessions at once, refuses its sign-in with a clear text, hides it from the default list; restore lets it in', async () => {
    const client = await newClient('Archived Ada');
    const project = await createProjectVia(t, admin, client.id);
    expect((await get(`/api/projects/client/${client.id}`, client)).statusCode).toBe(200);

    const res = await post(`/api/users/clients/${client.id}/archive`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().client).toMatchObject({ _id: client.id, archivedAt: t.clock.now().toISOString() });

    expect((await get(`/api/projects/client/${client.id}`, client)).statusCode).toBe(401);
    expect((await get('/api/auth/me', client)).statusCode).toBe(401);
    const refused = await login(client.username!);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(ACCOUNT_ARCHIVED);
    // A wrong password learns nothing about the account.
    expect((await login(client.username!, 'not the password at all')).json().message).toBe(CLIENT_LOGIN_FAILED);

    const live = (await get('/api/users/clients?pageSize=100')).json().clients.map((c: { _id: string }) => c._id);
    expect(live).not.toContain(client.id);
    const archived = (await get('/api/users/clients?status=archived')).json().clients.map((c: { _id: string }) => c._id);
    expect(archived).toContain(client.id);
    // Its projects are read-only while it is archived; status of the client too.
    expect((await sendAs(admin, project._id)).statusCode).toBe(409);
    expect((await t.app.inject({ method: 'PUT', url: `/api/users/clients/${client.id}/status`, headers: admin.headers, payload: { status: 'completed' } })).statusCode).toBe(409);
    expect((await post('/api/projects', admin, { name: 'New', code: `ARC-${Date.now()}`, clientId: client.id })).statusCode).toBe(409);

    expect((await post(`/api/users/clients/${client.id}/restore`)).json().client.archivedAt).toBeNull();
    const back = await login(client.username!);
    expect(back.statusCode, back.body).toBe(200);
    expect((await sendAs(admin, project._id)).statusCode).toBe(201);
  });

  it('answers 404 for a missing client or an admin id, 403 to a client', async () => {
    const client = await newClient();
    for (const action of ['archive', 'restore']) {
      expect((await post(`/api/users/clients/0b9a4e0e-3f3b-4c53-8d0d-5a0f6c7e9d11/${action}`)).statusCode).toBe(404);
      expect((await post(`/api/users/clients/${admin.id}/${action}`)).statusCode).toBe(404);
      expect((await post(`/api/users/clients/${client.id}/${action}`, client)).statusCode).toBe(403);
    }
  });
});

describe('delete', () => {
  it('deletes a project without history at once; one with history only with its typed name, then with its files, and says how many', async () => {
    const client = await newClient();
    const empty = await createProjectVia(t, admin, client.id);
    const gone = await del(`/api/projects/${empty._id}`);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json().deleted).toEqual({ name: empty.name, projects: 1, reports: 0, messages: 0, files: 0 });

    const full = await createProjectVia(t, admin, client.id);
    const file = await uploadAs(client, await makeImage('png'));
    expect((await sendAs(client, full._id, 'With a photo', [file.publicId])).statusCode).toBe(201);
    expect((await reportOn(full)).statusCode).toBe(201);
    const before = await storedFiles();
    expect(before).toHaveLength(3); // the attachment, the report image and its thumbnail

    const refused = await del(`/api/projects/${full._id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('archive the project, or type its name');
    expect((await del(`/api/projects/${full._id}`, { confirmName: 'Something else' })).statusCode).toBe(409);
    expect(await storedFiles()).toEqual(before);

    const deleted = await del(`/api/projects/${full._id}`, { confirmName: ` ${full.name} ` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().deleted).toEqual({ name: full.name, projects: 1, reports: 1, messages: 1, files: 3 });
    expect(await storedFiles()).toEqual([]);
    expect(await t.database.db.select().from(projects).where(eq(projects.id, full._id))).toEqual([]);
    expect((await del(`/api/projects/${full._id}`)).statusCode).toBe(404);
  });

  it('deletes a client with its projects, history only with its typed name; 403 to a client, 404 when missing', async () => {
    const quiet = await newClient('Quiet Client');
    await createProjectVia(t, admin, quiet.id);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/users/clients/${quiet.id}`, headers: quiet.headers })).statusCode).toBe(403);
    const res = await del(`/api/users/clients/${quiet.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deleted).toEqual({ name: 'Quiet Client', projects: 1, reports: 0, messages: 0, files: 0 });
    expect(await t.database.db.select().from(users).where(eq(users.id, quiet.id))).toEqual([]);

    const busy = await newClient('Busy Client');
    const project = await createProjectVia(t, admin, busy.id);
    expect((await sendAs(busy, project._id)).statusCode).toBe(201);
    expect((await del(`/api/users/clients/${busy.id}`)).statusCode).toBe(409);
    const done = await del(`/api/users/clients/${busy.id}`, { confirmName: 'Busy Client' });
    expect(done.json().deleted).toEqual({ name: 'Busy Client', projects: 1, reports: 0, messages: 1, files: 0 });
    expect((await del(`/api/users/clients/${busy.id}`)).statusCode).toBe(404);
    expect((await del('/api/users/clients/not-a-uuid')).statusCode).toBe(400);
  });

  it('a failed commit leaves every row and every file in place', async () => {
    const client = await newClient('Kept Client');
    const project = await createProjectVia(t, admin, client.id);
    expect((await reportOn(project)).statusCode).toBe(201);
    const before = await storedFiles();
    expect(before.length).toBeGreaterThan(0);
    // The database refuses the deletion at its last step, as a lost connection or a killed process would.
    await t.database.pool.query(`create function refuse_delete() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$;
      create trigger refuse_user_delete before delete on users for each row execute function refuse_delete();`);
    try {
      const res = await del(`/api/users/clients/${client.id}`, { confirmName: 'Kept Client' });
      expect(res.statusCode).toBe(500);
    } finally {
      await t.database.pool.query('drop trigger refuse_user_delete on users; drop function refuse_delete();');
    }
    expect(await t.database.db.select().from(projects).where(eq(projects.id, project._id))).toHaveLength(1);
    expect(await t.database.db.select().from(progressReports).where(eq(progressReports.projectId, project._id))).toHaveLength(1);
    expect((await storedFiles()).sort()).toEqual(before.sort());
    for (const key of before) expect(existsSync(path.join(t.uploadsDir, key))).toBe(true);
  });
});

// Last in the file: its report's image stays stored, and the delete tests above count stored files.
describe('corrections of archived records', () => {
  it('refuses corrections too (project, its report, the author\'s message, an archived client) with 409 and changes nothing', async () => {
    const client = await newClient();
    const project = await createProjectVia(t, admin, client.id);
    const report = await reportOn(project);
    expect(report.statusCode, report.body).toBe(201);
    const reportId = report.json().report._id as string;
    const sent = await sendAs(admin, project._id, 'Before the archive');
    expect(sent.statusCode, sent.body).toBe(201);
    const messageId = sent.json().message._id as string;
    expect((await post(`/api/projects/${project._id}/archive`)).statusCode).toBe(200);

    const correction = await multipart({ progress: 'Corrected after the archive' }, []);
    const refusals = [
      await t.app.inject({ method: 'PATCH', url: `/api/projects/${project._id}`, headers: admin.headers, payload: { name: 'Renamed' } }),
      await t.app.inject({ method: 'PATCH', url: `/api/reports/${reportId}`, headers: { ...admin.headers, ...correction.headers }, payload: correction.payload }),
      await t.app.inject({ method: 'PATCH', url: `/api/messages/${messageId}`, headers: admin.headers, payload: { text: 'Changed' } }),
      await t.app.inject({ method: 'DELETE', url: `/api/messages/${messageId}`, headers: admin.headers }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toBe('This project is archived: restore it before changing it');
    }
    const [projectRow] = await t.database.db.select().from(projects).where(eq(projects.id, project._id));
    expect(projectRow.name).toBe(project.name);
    const [reportRow] = await t.database.db.select().from(progressReports).where(eq(progressReports.id, reportId));
    expect(reportRow.progress).toBe('Started');
    const [messageRow] = await t.database.db.select().from(messages).where(eq(messages.id, messageId));
    expect(messageRow).toMatchObject({ text: 'Before the archive', editedAt: null, deletedAt: null });

    expect((await post(`/api/users/clients/${client.id}/archive`)).statusCode).toBe(200);
    const renamed = await t.app.inject({ method: 'PATCH', url: `/api/users/clients/${client.id}`, headers: admin.headers, payload: { name: 'Renamed Client' } });
    expect(renamed.statusCode, renamed.body).toBe(409);
    const [clientRow] = await t.database.db.select().from(users).where(eq(users.id, client.id));
    expect(clientRow.name).toBe(client.name);
  });
});
