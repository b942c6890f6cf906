import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../../db/schema/projects.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { actor, createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';

// Issue 22: staff correct a project (name, code, description, dates, budget, status) with creation's rules.

let t: TestApp;
let admin: Actor;
let owner: Actor;

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin');
  owner = await actor(t, 'client', 'Halima Owner');
});
afterAll(() => t?.close());

const patch = (id: string, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'PATCH', url: `/api/projects/${id}`, headers, payload: payload as object });
const row = async (id: string) => (await t.database.db.select().from(projects).where(eq(projects.id, id)))[0];
const fresh = (extra: Record<string, unknown> = {}) =>
  createProjectVia(t, admin, owner.id, { description: 'Original scope', startDate: '2026-01-10', endDate: '2026-06-30', ...extra });

describe('PATCH /api/projects/:id', () => {
  it('changes every field it names, keeps the others, and the client reads the correction without the budget', async () => {
    const project = await fresh();
    const res = await patch(project._id, {
      name: 'Bonny Jetty Phase 2',
      code: 'BJ-02',
      description: 'Line one\r\nLine two',
      startDate: '2026-02-01',
      endDate: '2026-09-30',
      budget: '1,250,000.50',
      status: 'in-progress',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().project).toMatchObject({
      _id: project._id,
      name: 'Bonny Jetty Phase 2',
      code: 'BJ-02',
      description: 'Line one\nLine two',
      startDate: '2026-02-01',
      endDate: '2026-09-30',
      budget: 1250000.5,
      status: 'in-progress',
      clientId: { _id: owner.id, name: 'Halima Owner' },
    });
    const partial = await patch(project._id, { description: 'Only this' });
    expect(partial.json().project).toMatchObject({ name: 'Bonny Jetty Phase 2', code: 'BJ-02', description: 'Only this', startDate: '2026-02-01', budget: 1250000.5, status: 'in-progress' });
    const listed = await t.app.inject({ method: 'GET', url: `/api/projects/client/${owner.id}`, headers: owner.headers });
    const seen = listed.json().projects.find((p: { _id: string }) => p._id === project._id);
    expect(seen).toMatchObject({ name: 'Bonny Jetty Phase 2', description: 'Only this' });
    expect(seen.budget).toBeUndefined();
  });

  it('clears a date sent empty and reads an empty budget as 0, as creation does', async () => {
    const project = await fresh();
    const res = await patch(project._id, { endDate: '', budget: '' });
    expect(res.json().project).toMatchObject({ startDate: '2026-01-10', endDate: null, budget: 0 });
  });

  it.each([
    [{ name: '' }, 'body.name'],
    [{ code: ' ' }, 'body.code'],
    [{ startDate: '31/01/2026' }, 'body.startDate'],
    [{ budget: '-5' }, 'body.budget'],
    [{ budget: 'lots' }, 'body.budget'],
    [{ status: 'cancelled' }, 'body.status'],
    [{ startDate: '2026-05-01', endDate: '2026-04-01' }, 'body.endDate'],
    // Against the stored start date (2026-01-10): the rule holds when only one date is sent.
    [{ endDate: '2026-01-01' }, 'body.endDate'],
    [{ startDate: '2026-07-01' }, 'body.endDate'],
    [{ clientId: '00000000-0000-4000-8000-000000000000' }, 'body'],
    [{}, 'body'],
  ])('refuses %j with 400 (%s) and stores nothing', async (payload, field) => {
    const project = await fresh();
    const before = await row(project._id);
    const res = await patch(project._id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await row(project._id)).toEqual(before);
  });

  it('says the end date must not be before the start date, in creation words', async () => {
    const project = await fresh();
    const res = await patch(project._id, { endDate: '2026-01-01' });
    expect(res.json().message).toBe('body.endDate: The end date must not be before the start date');
  });

  it('refuses a code another project has (any letter case) with the words of creation', async () => {
    const taken = await fresh();
    const project = await fresh();
    const before = await row(project._id);
    const res = await patch(project._id, { code: taken.code.toLowerCase(), name: 'Renamed' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', message: `A project with the code ${taken.code.toLowerCase()} already exists` });
    expect(await row(project._id)).toEqual(before);
    // Its own code, in another case, is no clash.
    expect((await patch(project._id, { code: project.code.toLowerCase() })).statusCode).toBe(200);
  });

  it('answers 404 for a missing id and 403 to a client, even its own project', async () => {
    expect((await patch('00000000-0000-4000-8000-000000000000', { name: 'X' })).statusCode).toBe(404);
    const project = await fresh();
    const res = await patch(project._id, { name: 'Client rename' }, owner.headers);
    expect(res.statusCode).toBe(403);
    expect((await row(project._id)).name).toBe(project.name);
  });

  it('keeps the dates in order when two corrections race, each valid alone', async () => {
    // Start 2026-01-10, end 2026-06-30: moving the start to May is valid with the old end, and
    // moving the end to March is valid with the old start; together they would cross.
    const project = await fresh();
    const [a, b] = await meetingAtLockedRow(t, 'projects', project._id, 2, () =>
      Promise.all([patch(project._id, { startDate: '2026-05-01' }), patch(project._id, { endDate: '2026-03-01' })]),
    );
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const stored = await row(project._id);
    expect(stored.startDate! <= stored.endDate!).toBe(true);
  });
});
