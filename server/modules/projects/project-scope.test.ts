import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { projectAssignments } from '../../db/schema/projects.ts';
import { appWithTwoClients } from '../../../tests/helpers/actors.ts';
import { reportOn, timelineOn } from '../../../tests/helpers/access-fixtures.ts';
import type { AccessFixtureContext } from '../../../tests/helpers/access-table.ts';
import { openEventStream } from '../../../tests/helpers/event-stream.ts';
import { createProjectVia, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { samplePng } from '../../../tests/helpers/sample-files.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';

// Decision 277: a project manager sees and changes only the projects assigned to them; every other
// project answers exactly as a missing one (404), in every module that bears on projects.

type Project = { _id: string; code: string; name: string };
let t: TestApp;
let owner: Actor;
let clientA: Actor;
let clientB: Actor;
let pm: Actor;
let mine: Project;
let theirs: Project;
let reports: { mine: { id: string; imageId: string }; theirs: { id: string; imageId: string } };
let timelines: { mine: string; theirs: string };

async function staffActor(staffRole: 'project_manager' | 'editor' | 'admin', name: string): Promise<Actor> {
  const user = await createUser(t, { role: 'admin', staffRole, name });
  const { cookie } = await signIn(t, user, 'admin');
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

const call = (who: Actor, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
const assign = (who: Actor, project: Project, managerIds: unknown) => call(who, 'PUT', `/api/projects/${project._id}/managers`, { managerIds });
const assignedRows = () => t.database.db.select().from(projectAssignments).orderBy(projectAssignments.projectId);

async function sendAs(who: Actor, project: Project, text: string, attachments: string[] = []) {
  const res = await call(who, 'POST', '/api/messages', { projectId: project._id, subject: '', text, attachments });
  expect(res.statusCode).toBe(201);
  return res.json().message as { _id: string };
}

beforeAll(async () => {
  ({ t, admin: owner, clientA, clientB } = await appWithTwoClients(['Harbour Client', 'Inland Client']));
  pm = await staffActor('project_manager', 'Pat Manager');
  mine = await createProjectVia(t, owner, clientA.id, { name: 'Quay Wall Repair' });
  theirs = await createProjectVia(t, owner, clientB.id, { name: 'Quarry Access Road' });
  const ctx = { t, admin: owner } as unknown as AccessFixtureContext;
  reports = { mine: await reportOn(ctx, mine), theirs: await reportOn(ctx, theirs) };
  timelines = { mine: await timelineOn(ctx, mine._id), theirs: await timelineOn(ctx, theirs._id) };
  expect((await assign(owner, mine, [pm.id])).statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('assigning project managers', () => {
  it('stores exactly the chosen managers with an audit event, and lists the candidates', async () => {
    const res = await call(owner, 'GET', `/api/projects/${mine._id}/managers`);
    expect(res.statusCode).toBe(200);
    expect(res.json().managers).toEqual([{ _id: pm.id, name: 'Pat Manager', email: expect.any(String) }]);
    expect(res.json().candidates.map((c: { _id: string }) => c._id)).toContain(pm.id);
    const [event] = await t.database.db.select().from(auditEvents).where(and(eq(auditEvents.action, 'project.managers'), eq(auditEvents.entityId, mine._id)));
    expect(event).toMatchObject({ actorId: owner.id, projectId: mine._id, before: { managerIds: [] }, after: { managerIds: [pm.id] } });
  });

  it('refuses ids that are not active project managers, with nothing stored', async () => {
    const editor = await staffActor('editor', 'Ed Itor');
    const before = await assignedRows();
    for (const ids of [[clientA.id], [owner.id], [editor.id], ['0b7b8f0e-5d2a-4c1e-9a43-1f6f3f2b9d11'], [pm.id, pm.id], ['not-a-uuid'], 'x']) {
      const res = await assign(owner, mine, ids);
      expect(res.statusCode, JSON.stringify(ids)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    }
    expect(await assignedRows()).toEqual(before);
    expect((await assign(owner, { ...mine, _id: '0b7b8f0e-5d2a-4c1e-9a43-1f6f3f2b9d12' }, [pm.id])).statusCode).toBe(404);
  });

  it('is for owners and admins only: a project manager gets 403 and assigns nobody', async () => {
    const admin = await staffActor('admin', 'Ada Admin');
    const before = await assignedRows();
    expect((await assign(pm, theirs, [pm.id])).statusCode).toBe(403);
    expect((await call(pm, 'GET', `/api/projects/${theirs._id}/managers`)).statusCode).toBe(403);
    expect(await assignedRows()).toEqual(before);
    expect((await call(admin, 'GET', `/api/projects/${theirs._id}/managers`)).statusCode).toBe(200);
  });

  it('keeps project and client creation for owners and admins', async () => {
    expect((await call(pm, 'POST', '/api/projects', { name: 'Own Project', code: 'PM-OWN', clientId: clientA.id, budget: '10' })).statusCode).toBe(403);
    expect((await call(pm, 'POST', '/api/users/clients', { name: 'New Client', email: 'new-client@example.test' })).statusCode).toBe(403);
    expect((await call(pm, 'DELETE', `/api/users/clients/${clientA.id}`)).statusCode).toBe(403);
  });
});

describe("a project manager's scope", () => {
  it('lists only the assigned project and its client', async () => {
    const clients = (await call(pm, 'GET', '/api/users/clients')).json();
    expect(clients.clients.map((c: { _id: string }) => c._id)).toEqual([clientA.id]);
    expect(clients.clients[0].projects).toBe(1);
    const list = await call(pm, 'GET', `/api/projects/client/${clientA.id}`);
    expect(list.json().projects.map((p: Project) => p._id)).toEqual([mine._id]);
    expect((await call(pm, 'GET', `/api/projects/client/${clientB.id}`)).json()).toMatchObject({ success: false, message: 'Client not found' });
    expect((await call(pm, 'GET', `/api/projects/client/${clientB.id}?sort=name`)).statusCode).toBe(404);
    expect((await call(pm, 'PATCH', `/api/users/clients/${clientB.id}`, { name: 'Renamed' })).statusCode).toBe(404);
    expect((await call(pm, 'PUT', `/api/users/clients/${clientB.id}/status`, { status: 'completed' })).statusCode).toBe(404);
  });

  it('answers 404 for every read and write of the other project, as for a missing one', async () => {
    const other = {
      project: [
        ['PATCH', `/api/projects/${theirs._id}`, { description: 'Taken over' }],
        ['PUT', `/api/projects/${theirs._id}/status`, { status: 'completed' }],
        ['POST', `/api/projects/${theirs._id}/archive`],
        ['DELETE', `/api/projects/${theirs._id}`],
        ['GET', `/api/reports/project/${theirs._id}`],
        ['GET', `/api/reports/${reports.theirs.id}/pdf`],
        ['GET', `/api/reports/${reports.theirs.id}/versions`],
        ['GET', `/api/reports/${reports.theirs.id}/images/${reports.theirs.imageId}`],
        ['GET', `/api/gantt-charts/project/${theirs._id}`],
        ['PUT', `/api/gantt-charts/${timelines.theirs}`, { projectTitle: 'Mine now', tasks: [{ task: 'Take over', month: '2026-12' }] }],
        ['POST', '/api/gantt-charts', { projectId: theirs._id, projectTitle: 'Mine now', tasks: [{ task: 'Take over', month: '2026-12' }] }],
        ['GET', `/api/messages/project/${theirs._id}`],
        ['PUT', `/api/messages/project/${theirs._id}/read`],
        ['POST', '/api/messages', { projectId: theirs._id, subject: '', text: 'Hello from elsewhere' }],
      ],
    } as const;
    for (const [method, url, body] of other.project as unknown as [Parameters<typeof call>[1], string, object?][]) {
      const res = await call(pm, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().success).toBe(false);
    }
    // The same calls on the assigned project work.
    expect((await call(pm, 'PATCH', `/api/projects/${mine._id}`, { description: 'Managed' })).statusCode).toBe(200);
    expect((await call(pm, 'GET', `/api/reports/project/${mine._id}`)).statusCode).toBe(200);
    expect((await call(pm, 'GET', `/api/gantt-charts/project/${mine._id}`)).statusCode).toBe(200);
    expect((await call(pm, 'GET', `/api/reports/${reports.mine.id}/images/${reports.mine.imageId}`)).statusCode).toBe(200);
    expect((await call(pm, 'GET', `/api/messages/project/${mine._id}`)).statusCode).toBe(200);
  });

  it("counts unread messages, serves files and answers messages only of the assigned project", async () => {
    const upload = await call(clientB, 'POST', '/api/messages/upload', { file: (await samplePng()).toString('base64'), name: 'site.png', mimeType: 'image/png' });
    expect(upload.statusCode).toBe(201);
    const fileId = upload.json().file.publicId as string;
    const theirsMessage = await sendAs(clientB, theirs, 'Gate is locked', [fileId]);
    const mineMessage = await sendAs(clientA, mine, 'Crane arrives Monday');
    const pmUnread = (await call(pm, 'GET', '/api/messages/unread')).json();
    expect(pmUnread).toMatchObject({ total: 1, byProject: { [mine._id]: 1 } });
    expect((await call(owner, 'GET', '/api/messages/unread')).json().total).toBe(2);
    expect((await call(pm, 'GET', `/api/files/${fileId}`)).statusCode).toBe(404);
    expect((await call(owner, 'GET', `/api/files/${fileId}`)).statusCode).toBe(200);
    expect((await call(pm, 'PUT', `/api/messages/${theirsMessage._id}/read`)).statusCode).toBe(404);
    expect((await call(pm, 'GET', `/api/messages/${theirsMessage._id}/versions`)).statusCode).toBe(404);
    expect((await call(pm, 'PUT', `/api/messages/${mineMessage._id}/read`)).statusCode).toBe(200);
    expect((await call(pm, 'GET', '/api/users/clients')).json().clients[0].unreadCount).toBe(0);
  });

  it('finds only the assigned project, its client and its records', async () => {
    const res = await call(pm, 'GET', '/api/search?q=Qua');
    expect(res.statusCode).toBe(200);
    const groups = Object.fromEntries(res.json().groups.map((g: { kind: string; hits: { id: string }[] }) => [g.kind, g.hits.map((h) => h.id)]));
    expect(groups.projects).toEqual([mine._id]);
    const clientHits = (await call(pm, 'GET', '/api/search?q=Client')).json().groups.find((g: { kind: string }) => g.kind === 'clients');
    expect(clientHits.hits.map((h: { id: string }) => h.id)).toEqual([clientA.id]);
    const ownerHits = (await call(owner, 'GET', '/api/search?q=Qua')).json().groups.find((g: { kind: string }) => g.kind === 'projects');
    expect(ownerHits.hits).toHaveLength(2);
  });
});

/** The app's address, listening from the first stream test on. */
async function listening(): Promise<string> {
  const address = t.app.server.address();
  return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}` : t.app.listen({ port: 0, host: '127.0.0.1' });
}

describe("a project manager's live stream", () => {
  it('carries only assigned projects, and follows an assignment from the next event on', async () => {
    const base = await listening();
    const stream = await openEventStream(base, pm.headers.cookie);
    try {
      await stream.waitFor((e) => e.event === 'ready');
      const change = (project: Project, text: string) => call(owner, 'PATCH', `/api/projects/${project._id}`, { description: text });
      const heard = (project: Project) => stream.events.filter((e) => (e.data as { projectId?: string }).projectId === project._id);
      await change(theirs, 'Not yours');
      await sendAs(clientB, theirs, 'Not yours either');
      await change(mine, 'Yours');
      await stream.waitFor((e) => e.event === 'change' && (e.data as { projectId: string }).projectId === mine._id);
      expect(heard(theirs)).toEqual([]);
      // Assigned while the stream stays open: the assignment's own event and the next change arrive.
      expect((await assign(owner, theirs, [pm.id])).statusCode).toBe(200);
      await change(theirs, 'Now yours');
      await stream.waitFor((e) => e.event === 'change' && (e.data as { projectId: string }).projectId === theirs._id);
      expect((await assign(owner, theirs, [])).statusCode).toBe(200);
      const count = heard(theirs).length;
      await change(theirs, 'Gone again');
      await change(mine, 'Still yours');
      await stream.waitFor(() => heard(mine).length >= 2);
      expect(heard(theirs)).toHaveLength(count);
    } finally {
      await stream.close();
    }
  });
});

describe("a client's live stream", () => {
  it("still hears of its project's deletion, the last event of a project that is gone", async () => {
    const base = await listening();
    const doomed = await createProjectVia(t, owner, clientA.id, { name: 'Short-lived shed' });
    const stream = await openEventStream(base, clientA.headers.cookie);
    try {
      await stream.waitFor((e) => e.event === 'ready');
      expect((await call(owner, 'DELETE', `/api/projects/${doomed._id}`, {})).statusCode).toBe(200);
      await stream.waitFor((e) => e.event === 'change' && (e.data as { projectId: string }).projectId === doomed._id);
    } finally {
      await stream.close();
    }
  });
});
