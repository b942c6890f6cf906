import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_PAGE_SIZE } from '../../../common/schemas/pagination.ts';
import { nextProjectStatus, PROJECT_STATUSES } from '../../../common/schemas/projects.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';
import { appWithTwoClients } from '../../../tests/helpers/actors.ts';

let t: TestApp;
let admin: Actor;
let clientA: Actor;
let clientB: Actor;

beforeAll(async () => ({ t, admin, clientA, clientB } = await appWithTwoClients(['Ada Client', 'Bola Client'])));
afterAll(() => t?.close());

describe('POST /api/projects', () => {
  it('creates a project whose clientId reads back as an object with _id and name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: admin.headers,
      payload: {
        name: 'Onne jetty rehabilitation',
        code: 'ONJ-001',
        description: 'Piling and deck works',
        startDate: '2026-01-05',
        endDate: '2026-09-30',
        budget: '1,250,000.50',
        clientId: clientA.id,
      },
    });
    expect(res.statusCode).toBe(201);
    const { project } = res.json();
    expect(project).toMatchObject({
      name: 'Onne jetty rehabilitation',
      code: 'ONJ-001',
      description: 'Piling and deck works',
      startDate: '2026-01-05',
      endDate: '2026-09-30',
      budget: 1250000.5,
      status: 'not-started',
      clientId: { _id: clientA.id, name: 'Ada Client' },
    });
    expect(project._id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('parses the budget to a number and defaults it to 0; dates and description are optional', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: admin.headers,
      payload: { name: 'No budget yet', code: 'NB-1', clientId: clientA.id, budget: '', startDate: '', endDate: '' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().project).toMatchObject({ budget: 0, description: '', startDate: null, endDate: null });
    const numeric = await createProjectVia(t, admin, clientA.id, { budget: 42 });
    expect(numeric).toMatchObject({ budget: 42 });
  });

  it.each([
    [{ name: '', code: 'X-1' }, 'body.name'],
    [{ name: 'A', code: '' }, 'body.code'],
    [{ name: 'A', code: 'X-2', budget: 'lots' }, 'body.budget'],
    [{ name: 'A', code: 'X-3', budget: -5 }, 'body.budget'],
    [{ name: 'A', code: 'X-4', startDate: '2026-13-01' }, 'body.startDate'],
    [{ name: 'A', code: 'X-5', startDate: '2026-05-01', endDate: '2026-04-01' }, 'body.endDate'],
    [{ name: 'A', code: 'X-6', clientId: 'not-a-uuid' }, 'body.clientId'],
    [{ name: 'Null\u0000byte', code: 'X-7' }, 'body.name'],
  ])('refuses an invalid project %j with a validation error on %s', async (fields, field) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: admin.headers,
      payload: { clientId: clientA.id, ...fields },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('refuses a second project with the same code, whatever its letter case', async () => {
    await createProjectVia(t, admin, clientA.id, { code: 'DUP-7' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: admin.headers,
      payload: { name: 'Again', code: 'dup-7', clientId: clientB.id },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'CONFLICT', message: 'A project with the code dup-7 already exists' });
  });

  it('refuses a project for a client that does not exist, or for a user who is not a client', async () => {
    for (const clientId of ['00000000-0000-4000-8000-000000000000', admin.id]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/projects', headers: admin.headers, payload: { name: 'A', code: `Z-${clientId.slice(0, 4)}`, clientId } });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Client not found');
    }
  });

  it('lets only admins create projects', async () => {
    const payload = { name: 'Mine', code: 'MINE-1', clientId: clientA.id };
    const asClient = await t.app.inject({ method: 'POST', url: '/api/projects', headers: clientA.headers, payload });
    expect(asClient.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/projects', headers: { origin: admin.headers.origin }, payload });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/projects/client/:clientId', () => {
  it("gives a client its own projects without the budget", async () => {
    // A budget no id or date can contain by chance (999 once turned up inside a random UUID).
    const own = await createProjectVia(t, admin, clientB.id, { budget: 987654321 });
    const res = await t.app.inject({ method: 'GET', url: `/api/projects/client/${clientB.id}`, headers: clientB.headers });
    expect(res.statusCode).toBe(200);
    const { projects } = res.json();
    expect(projects.map((p: { _id: string }) => p._id)).toContain(own._id);
    for (const p of projects) {
      expect(p).not.toHaveProperty('budget');
      expect(p.clientId).toEqual({ _id: clientB.id, name: 'Bola Client' });
    }
    expect(res.body).not.toContain('987654321');
  });

  it('gives staff the budget', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/projects/client/${clientB.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().projects.every((p: { budget?: number }) => typeof p.budget === 'number')).toBe(true);
  });

  it("hides another client's project list behind 404, exactly like a missing client", async () => {
    const other = await t.app.inject({ method: 'GET', url: `/api/projects/client/${clientA.id}`, headers: clientB.headers });
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/projects/client/00000000-0000-4000-8000-000000000000',
      headers: clientB.headers,
    });
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it('answers 404 to staff for an id that is not a client', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/projects/client/${admin.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(404);
  });

  it(`pages the list (${LIST_PAGE_SIZE} by default), newest first`, async () => {
    const many = await actor(t, 'client', 'Many Projects');
    for (let i = 0; i < 5; i++) {
      await createProjectVia(t, admin, many.id, { name: `Many ${i}` });
      t.clock.advance(1000);
    }
    const first = await t.app.inject({ method: 'GET', url: `/api/projects/client/${many.id}?pageSize=2`, headers: many.headers });
    expect(first.json().projects.map((p: { name: string }) => p.name)).toEqual(['Many 4', 'Many 3']);
    expect(first.json().pagination).toEqual({ page: 1, pageSize: 2, total: 5, hasMore: true });
    const last = await t.app.inject({ method: 'GET', url: `/api/projects/client/${many.id}?pageSize=2&page=3`, headers: many.headers });
    expect(last.json().projects.map((p: { name: string }) => p.name)).toEqual(['Many 0']);
    expect(last.json().pagination).toEqual({ page: 3, pageSize: 2, total: 5, hasMore: false });
    const beyond = await t.app.inject({ method: 'GET', url: `/api/projects/client/${many.id}?pageSize=2&page=9`, headers: many.headers });
    expect(beyond.json()).toMatchObject({ projects: [], pagination: { total: 5, hasMore: false } });
    const byDefault = await t.app.inject({ method: 'GET', url: `/api/projects/client/${many.id}`, headers: many.headers });
    expect(byDefault.json().pagination.pageSize).toBe(LIST_PAGE_SIZE);
    const tooBig = await t.app.inject({ method: 'GET', url: `/api/projects/client/${many.id}?pageSize=1000`, headers: many.headers });
    expect(tooBig.statusCode).toBe(400);
  });
});

describe('PUT /api/projects/:id/status', () => {
  it('cycles not-started → in-progress → paused → completed → not-started, saving each step', async () => {
    const project = await createProjectVia(t, admin, clientA.id);
    let status: (typeof PROJECT_STATUSES)[number] = 'not-started';
    const seen: string[] = [];
    for (let i = 0; i < PROJECT_STATUSES.length; i++) {
      status = nextProjectStatus(status);
      const res = await t.app.inject({ method: 'PUT', url: `/api/projects/${project._id}/status`, headers: admin.headers, payload: { status } });
      expect(res.statusCode).toBe(200);
      expect(res.json().project).toMatchObject({ _id: project._id, status, clientId: { _id: clientA.id } });
      seen.push(status);
    }
    expect(seen).toEqual(['in-progress', 'paused', 'completed', 'not-started']);
    const list = await t.app.inject({ method: 'GET', url: `/api/projects/client/${clientA.id}`, headers: clientA.headers });
    expect(list.json().projects.find((p: { _id: string }) => p._id === project._id).status).toBe('not-started');
  });

  it('refuses an unknown status, a missing project, and clients', async () => {
    const project = await createProjectVia(t, admin, clientA.id);
    const bad = await t.app.inject({ method: 'PUT', url: `/api/projects/${project._id}/status`, headers: admin.headers, payload: { status: 'done' } });
    expect(bad.statusCode).toBe(400);
    const missing = await t.app.inject({
      method: 'PUT',
      url: '/api/projects/00000000-0000-4000-8000-000000000000/status',
      headers: admin.headers,
      payload: { status: 'paused' },
    });
    expect(missing.statusCode).toBe(404);
    const asOwner = await t.app.inject({ method: 'PUT', url: `/api/projects/${project._id}/status`, headers: clientA.headers, payload: { status: 'paused' } });
    expect(asOwner.statusCode).toBe(403);
  });
});
