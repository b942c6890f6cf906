import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { timelineMonths } from '../../../common/schemas/timelines.ts';
import { ganttCharts } from '../../db/schema/timelines.ts';
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
    // The old shape (no end month) is a one-month task: the end is the start.
    expect(res.json().timeline.tasks.map((tk: { endMonth: string }) => tk.endMonth)).toEqual(['2026-01', '2026-02', '2026-03', '2026-04']);
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
    [{ projectTitle: 'T', tasks: [{ task: 'A', month: '2026-01', endMonth: 'March' }] }, 'body.tasks.0.endMonth'],
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

  describe('tasks of several months (decision 253)', () => {
    const put = (id: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: `/api/gantt-charts/${id}`, headers: admin.headers, payload });
    const read = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/gantt-charts/project/${projectA._id}`, headers: clientA.headers })).json().timelines as {
        _id: string;
        tasks: { task: string; month: string; endMonth: string }[];
      }[];

    it('stores a start and an end month; the client reads `month` as the start and the axis runs to the last end', async () => {
      const res = await create({
        projectId: projectA._id,
        projectTitle: 'Quay wall',
        tasks: [
          { task: 'Piling', month: '2026-03', endMonth: '2026-05', status: 'in-progress' },
          { task: 'Capping beam', month: '2026-06' },
        ],
      });
      expect(res.statusCode).toBe(201);
      const id = res.json().timeline._id;
      const stored = (await read()).find((tl) => tl._id === id)!;
      expect(stored.tasks).toEqual([
        { task: 'Piling', month: '2026-03', endMonth: '2026-05', status: 'in-progress', completed: false },
        { task: 'Capping beam', month: '2026-06', endMonth: '2026-06', status: 'not-started', completed: false },
      ]);
      expect(timelineMonths(stored.tasks)).toEqual(['2026-03', '2026-04', '2026-05', '2026-06']);
    });

    it('refuses an end before the start, or a task longer than 60 months, with 400 naming the field and nothing stored', async () => {
      const before = await t.app.inject({ method: 'GET', url: `/api/gantt-charts/project/${projectA._id}`, headers: admin.headers });
      const earlier = await create({ projectId: projectA._id, projectTitle: 'Backwards', tasks: [{ task: 'Dredging', month: '2026-05', endMonth: '2026-04' }] });
      expect(earlier.statusCode).toBe(400);
      expect(earlier.json()).toMatchObject({ success: false, code: expect.any(String) });
      expect(earlier.json().details).toContainEqual(expect.objectContaining({ field: 'body.tasks.0.endMonth', message: 'End month: use the start month or a later one' }));
      const tooLong = await create({ projectId: projectA._id, projectTitle: 'Forever', tasks: [{ task: 'Upkeep', month: '2026-01', endMonth: '2031-01' }] });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().details.map((d: { field: string }) => d.field)).toContain('body.tasks.0.endMonth');
      // Sixty months exactly is allowed.
      const longest = await create({ projectId: projectA._id, projectTitle: 'Five years', tasks: [{ task: 'Upkeep', month: '2026-01', endMonth: '2030-12' }] });
      expect(longest.statusCode).toBe(201);
      const first = (await read())[0];
      const badPut = await put(first._id, { projectTitle: 'Changed', tasks: [{ task: 'X', month: '2026-02', endMonth: '2025-12' }] });
      expect(badPut.statusCode).toBe(400);
      const after = await t.app.inject({ method: 'GET', url: `/api/gantt-charts/project/${projectA._id}`, headers: admin.headers });
      const titles = (res: typeof before) => res.json().timelines.map((tl: { projectTitle: string }) => tl.projectTitle).sort();
      expect(titles(after)).toEqual([...titles(before), 'Five years'].sort());
    });

    it('keeps the order staff give: a reordered list is stored and read back in that order', async () => {
      const created = (
        await create({
          projectId: projectA._id,
          projectTitle: 'Order',
          tasks: [
            { task: 'Survey', month: '2026-01' },
            { task: 'Design', month: '2026-02', endMonth: '2026-03' },
            { task: 'Build', month: '2026-04' },
          ],
        })
      ).json().timeline;
      const res = await put(created._id, {
        projectTitle: 'Order',
        tasks: [
          { task: 'Build', month: '2026-04' },
          { task: 'Survey', month: '2026-01' },
          { task: 'Design', month: '2026-02', endMonth: '2026-03' },
        ],
      });
      expect(res.statusCode).toBe(200);
      const stored = (await read()).find((tl) => tl._id === created._id)!;
      expect(stored.tasks.map((tk) => `${tk.task} ${tk.month}..${tk.endMonth}`)).toEqual(['Build 2026-04..2026-04', 'Survey 2026-01..2026-01', 'Design 2026-02..2026-03']);
    });

    it('reads a row saved before end months existed as one-month tasks, and an old-shape PUT keeps working', async () => {
      const created = (await create({ projectId: projectA._id, projectTitle: 'Legacy', tasks: [{ task: 'Survey', month: '2026-08' }] })).json().timeline;
      // The jsonb as it was written before this change: no endMonth key at all.
      await t.app.db
        .update(ganttCharts)
        .set({ tasks: [{ task: 'Survey', month: '2026-08', status: 'completed', completed: true }] })
        .where(eq(ganttCharts.id, created._id));
      const legacy = (await read()).find((tl) => tl._id === created._id)!;
      expect(legacy.tasks).toEqual([{ task: 'Survey', month: '2026-08', endMonth: '2026-08', status: 'completed', completed: true }]);
      // A client of the old shape sends month and completed only, and gets month back as it sent it.
      const res = await put(created._id, { projectTitle: 'Legacy', tasks: [{ task: 'Survey', month: '2026-09', completed: true }] });
      expect(res.statusCode).toBe(200);
      expect(res.json().timeline.tasks[0]).toMatchObject({ task: 'Survey', month: '2026-09', completed: true });
    });

    it('draws a long plan by the months its tasks run in, each task still one unbroken run', () => {
      expect(timelineMonths([{ month: '2026-11', endMonth: '2027-01' }, { month: '2027-02' }])).toEqual(['2026-11', '2026-12', '2027-01', '2027-02']);
      expect(timelineMonths([{ month: '2020-01', endMonth: '2020-03' }, { month: '2030-06' }])).toEqual(['2020-01', '2020-02', '2020-03', '2030-06']);
    });
  });
});
