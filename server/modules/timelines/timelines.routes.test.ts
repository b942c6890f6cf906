import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timelineMonths } from '../../../common/schemas/timelines.ts';
import type { TestApp } from '../../../tests/helpers/test-app.ts';
import { createProjectVia, type Actor } from '../../../tests/helpers/portal.ts';
import { appWithTwoClients } from '../../../tests/helpers/actors.ts';

let t: TestApp;
let admin: Actor;
let clientA: Actor;
let clientB: Actor;
let projectA: { _id: string };

beforeAll(async () => {
  ({ t, admin, clientA, clientB } = await appWithTwoClients());
  projectA = await createProjectVia(t, admin, clientA.id);
});
afterAll(() => t?.close());

const create = (payload: Record<string, unknown>, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url: '/api/gantt-charts', headers, payload });

describe('timelines (gantt charts)', () => {
  it('creates a record whose task status defaults to not-started and whose completed follows the status', async () => {
    const res = await create({
      projectId: projectA._id,
      projectTitle: 'Jetty works',
      tasks: [
        { task: 'Mobilisation', month: '2026-01', status: 'completed' },
        { task: 'Piling', month: '2026-02' },
        { task: 'Deck', month: '2026-03', completed: true },
        { task: 'Handover', month: '2026-04', status: 'in-progress', completed: true },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().timeline).toMatchObject({
      projectId: projectA._id,
      projectTitle: 'Jetty works',
      tasks: [
        { task: 'Mobilisation', month: '2026-01', status: 'completed', completed: true },
        { task: 'Piling', month: '2026-02', status: 'not-started', completed: false },
        { task: 'Deck', month: '2026-03', status: 'completed', completed: true },
        { task: 'Handover', month: '2026-04', status: 'in-progress', completed: false },
      ],
    });
    t.clock.advance(1000);
  });

  it("changing a task's status to completed sets completed", async () => {
    const created = (await create({ projectId: projectA._id, projectTitle: 'Plan', tasks: [{ task: 'Survey', month: '2026-05' }] })).json().timeline;
    expect(created.tasks[0].completed).toBe(false);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/gantt-charts/${created._id}`,
      headers: admin.headers,
      payload: { projectTitle: 'Plan (revised)', tasks: [{ task: 'Survey', month: '2026-05', status: 'completed' }, { task: 'Report', month: '2026-06' }] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().timeline).toMatchObject({
      _id: created._id,
      projectTitle: 'Plan (revised)',
      tasks: [
        { task: 'Survey', status: 'completed', completed: true },
        { task: 'Report', status: 'not-started', completed: false },
      ],
    });
  });

  it("lets the project's client read its timelines, oldest record first", async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/gantt-charts/project/${projectA._id}`, headers: clientA.headers });
    expect(res.statusCode).toBe(200);
    const titles = res.json().timelines.map((tl: { projectTitle: string }) => tl.projectTitle);
    expect(titles).toEqual(['Jetty works', 'Plan (revised)']);
    expect(timelineMonths(res.json().timelines[0].tasks)).toEqual(['2026-01', '2026-02', '2026-03', '2026-04']);
  });

  it("hides another client's timelines behind 404, exactly like a missing project", async () => {
    const other = await t.app.inject({ method: 'GET', url: `/api/gantt-charts/project/${projectA._id}`, headers: clientB.headers });
    const missing = await t.app.inject({ method: 'GET', url: '/api/gantt-charts/project/00000000-0000-4000-8000-000000000000', headers: clientB.headers });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
  });

  it.each([
    [{ projectTitle: '', tasks: [] }, 'body.projectTitle'],
    [{ projectTitle: 'T', tasks: [{ task: '', month: '2026-01' }] }, 'body.tasks.0.task'],
    [{ projectTitle: 'T', tasks: [{ task: 'A', month: 'January' }] }, 'body.tasks.0.month'],
    [{ projectTitle: 'T', tasks: [{ task: 'A', month: '2026-01', status: 'paused' }] }, 'body.tasks.0.status'],
  ])('refuses %j with a validation error on %s', async (fields, field) => {
    const res = await create({ projectId: projectA._id, ...fields });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('refuses a timeline for a missing project, an update of a missing record, and any change by a client', async () => {
    const missingProject = await create({ projectId: '00000000-0000-4000-8000-000000000000', projectTitle: 'T', tasks: [] });
    expect(missingProject.statusCode).toBe(404);
    const missingRecord = await t.app.inject({
      method: 'PUT',
      url: '/api/gantt-charts/00000000-0000-4000-8000-000000000000',
      headers: admin.headers,
      payload: { projectTitle: 'T', tasks: [] },
    });
    expect(missingRecord.statusCode).toBe(404);
    const byOwner = await create({ projectId: projectA._id, projectTitle: 'Mine', tasks: [] }, clientA.headers);
    expect(byOwner.statusCode).toBe(403);
  });

  it('puts every month from the first task to the last on the chart axis, quiet months included', () => {
    expect(timelineMonths([{ month: '2026-11' }, { month: '2027-02' }, { month: '2026-11' }])).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
    expect(timelineMonths([])).toEqual([]);
    // A plan spread over decades shows only its own months rather than hundreds of empty columns.
    expect(timelineMonths([{ month: '2020-01' }, { month: '2030-06' }])).toEqual(['2020-01', '2030-06']);
  });
});
