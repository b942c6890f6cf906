import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';

// The staff lists of clients and projects: status filter (Archived included), order by name, date or
// last activity, with paging; bad values are 400; no parameters answer as before (issue 22, decision 248).

let t: TestApp;
let admin: Actor;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin');
  // Created a minute apart: Carla first, Ade last; Bisi in progress; Dayo archived.
  for (const name of ['Carla', 'Bisi', 'Dayo', 'Ade']) {
    ids[name] = (await actor(t, 'client', name)).id;
    t.clock.advance(60_000);
  }
  await t.app.inject({ method: 'PUT', url: `/api/users/clients/${ids.Bisi}/status`, headers: admin.headers, payload: { status: 'in-progress' } });
  await t.app.inject({ method: 'POST', url: `/api/users/clients/${ids.Dayo}/archive`, headers: admin.headers });
  t.clock.advance(60_000);
  // Latest activity: a message in Carla's project.
  const project = await createProjectVia(t, admin, ids.Carla);
  t.clock.advance(60_000);
  await t.app.inject({ method: 'POST', url: '/api/messages', headers: admin.headers, payload: { projectId: project._id, text: 'Latest news' } });
});
afterAll(() => t?.close());

const names = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/users/clients${query}`, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().clients.map((c: { name: string }) => c.name);
};

describe('GET /api/users/clients filters and orders', () => {
  it('answers as before without parameters: live clients, newest first', async () => {
    expect(await names('')).toEqual(['Ade', 'Bisi', 'Carla']);
  });
  it('filters by status, archived and all', async () => {
    expect(await names('?status=in-progress')).toEqual(['Bisi']);
    expect(await names('?status=archived')).toEqual(['Dayo']);
    expect(await names('?status=all&sort=name')).toEqual(['Ade', 'Bisi', 'Carla', 'Dayo']);
  });
  it('orders by name, date and last activity, a page at a time', async () => {
    expect(await names('?sort=name')).toEqual(['Ade', 'Bisi', 'Carla']);
    expect(await names('?sort=date')).toEqual(['Ade', 'Bisi', 'Carla']);
    expect((await names('?sort=activity'))[0]).toBe('Carla');
    const page = await t.app.inject({ method: 'GET', url: '/api/users/clients?sort=name&page=2&pageSize=2', headers: admin.headers });
    expect(page.json().clients.map((c: { name: string }) => c.name)).toEqual(['Carla']);
    expect(page.json().pagination).toEqual({ page: 2, pageSize: 2, total: 3, hasMore: false });
  });
  it.each(['?status=closed', '?sort=size', '?page=0', '?pageSize=500', '?status='])('refuses %s with 400', async (query) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/users/clients${query}`, headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  });
});

describe('GET /api/projects/client/{id} filters and orders', () => {
  it('filters by status and orders by name; bad values 400', async () => {
    const client = ids.Ade;
    const zulu = await createProjectVia(t, admin, client, { name: 'Zulu works' });
    await createProjectVia(t, admin, client, { name: 'alpha works' });
    t.clock.advance(60_000);
    await t.app.inject({ method: 'PUT', url: `/api/projects/${zulu._id}/status`, headers: admin.headers, payload: { status: 'paused' } });
    const list = async (q: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/projects/client/${client}${q}`, headers: admin.headers })).json().projects.map((p: { name: string }) => p.name);
    expect(await list('?sort=name')).toEqual(['alpha works', 'Zulu works']);
    expect(await list('?status=paused')).toEqual(['Zulu works']);
    expect(await list('?sort=activity')).toEqual(['Zulu works', 'alpha works']);
    for (const q of ['?status=done', '?sort=budget']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/projects/client/${client}${q}`, headers: admin.headers })).statusCode).toBe(400);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/projects/client/0b9a4e0e-3f3b-4c53-8d0d-5a0f6c7e9d11?status=all`, headers: admin.headers })).statusCode).toBe(404);
  });
});
