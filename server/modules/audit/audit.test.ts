import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema/audit.ts';
import { appWithProject } from '../../../tests/helpers/actors.ts';
import { actor, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { STAFF_ROLES, type StaffRole } from '../../../common/permissions.ts';
import { DENIED } from '../../plugins/access.ts';
import { csvCell } from './audit.service.ts';
import { describeChange } from '../../../common/schemas/audit.ts';

// Issue 23, "who did what": each change writes one event in its own transaction, with who, from
// where and only what changed; a refused change writes none; the database refuses to alter one.

const ADDRESS = '198.51.100.23';
let t: TestApp;
let admin: Actor;
let client: Actor;
let project: { _id: string; name: string };

beforeAll(async () => ({ t, admin, client, project } = await appWithProject('Audited Quay')));
afterAll(() => t?.close());

const as = (who: Actor, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, remoteAddress: ADDRESS, ...(payload ? { payload } : {}) });
const allEvents = () =>
  t.database.db
    .select()
    .from(auditEvents)
    .orderBy(sql`${auditEvents.at} desc, ${auditEvents.id} desc`);
const latest = async () => (await allEvents())[0];
/** Runs a change and answers the events it wrote. */
async function written(change: () => Promise<{ statusCode: number }>, status = 200) {
  const before = (await allEvents()).length;
  t.clock.advance(60_000);
  expect((await change()).statusCode).toBe(status);
  return (await allEvents()).slice(0, (await allEvents()).length - before);
}

describe('recording changes', () => {
  it('records a project status change with actor, address and before -> after', async () => {
    const [event, ...more] = await written(() =>
      as(admin, 'PUT', `/api/projects/${project._id}/status`, { status: 'in-progress' }),
    );
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      action: 'project.status',
      entityKind: 'project',
      entityId: project._id,
      projectId: project._id,
      actorId: admin.id,
      actorLabel: `admin: ${admin.name}`,
      address: ADDRESS,
      before: { status: 'not-started' },
      after: { status: 'in-progress' },
    });
    expect(event.at.toISOString()).toBe(t.clock.now().toISOString());
  });

  it('keeps only the changed fields of a project correction', async () => {
    const [event] = await written(() =>
      as(admin, 'PATCH', `/api/projects/${project._id}`, {
        name: 'Audited Quay Two',
        description: project.name === 'x' ? 'y' : undefined,
      }),
    );
    expect(event).toMatchObject({
      action: 'project.update',
      before: { name: 'Audited Quay' },
      after: { name: 'Audited Quay Two' },
    });
  });

  it('records client name, status, archive and restore', async () => {
    const [renamed] = await written(() =>
      as(admin, 'PATCH', `/api/users/clients/${client.id}`, { name: 'Renamed Client Ltd' }),
    );
    expect(renamed).toMatchObject({
      action: 'client.update',
      entityId: client.id,
      projectId: null,
      before: { name: client.name },
      after: { name: 'Renamed Client Ltd' },
    });
    const [status] = await written(() =>
      as(admin, 'PUT', `/api/users/clients/${client.id}/status`, { status: 'completed' }),
    );
    expect(status).toMatchObject({
      action: 'client.status',
      before: { status: 'new' },
      after: { status: 'completed' },
    });
    const [archived] = await written(() => as(admin, 'POST', `/api/users/clients/${client.id}/archive`));
    expect(archived).toMatchObject({ action: 'client.archive', before: { archivedAt: null } });
    const [restored] = await written(() => as(admin, 'POST', `/api/users/clients/${client.id}/restore`));
    expect(restored).toMatchObject({ action: 'client.restore', after: { archivedAt: null } });
  });

  it('records a created client and a deleted one, never a secret', async () => {
    const [created] = await written(
      () => as(admin, 'POST', '/api/users/clients', { name: 'Short Lived Ltd', email: 'short@example.test' }),
      201,
    );
    expect(created).toMatchObject({
      action: 'client.create',
      before: null,
      after: { name: 'Short Lived Ltd', email: 'short@example.test', status: 'new' },
    });
    const [deleted] = await written(() => as(admin, 'DELETE', `/api/users/clients/${created.entityId}`, {}));
    expect(deleted).toMatchObject({ action: 'client.delete', after: null, before: { name: 'Short Lived Ltd' } });
    const text = JSON.stringify(await allEvents());
    expect(text).not.toMatch(/argon2|password_hash|passwordHash"(?!:"\[redacted\])/);
  });

  it('writes nothing for a refused or failed change', async () => {
    const stranger = await actor(t, 'client');
    expect(
      await written(() => as(stranger, 'PUT', `/api/projects/${project._id}/status`, { status: 'completed' }), 403),
    ).toEqual([]);
    expect(
      await written(
        () => as(admin, 'PATCH', `/api/projects/${project._id}`, { startDate: '2027-05-01', endDate: '2027-01-01' }),
        400,
      ),
    ).toEqual([]);
    await as(admin, 'POST', `/api/projects/${project._id}/archive`);
    expect(
      await written(() => as(admin, 'PUT', `/api/projects/${project._id}/status`, { status: 'completed' }), 409),
    ).toEqual([]);
    await as(admin, 'POST', `/api/projects/${project._id}/restore`);
  });
});

describe('append-only', () => {
  it('the database refuses UPDATE, DELETE and TRUNCATE of audit rows', async () => {
    const { id } = await latest();
    const refusal = (statement: ReturnType<typeof sql>) =>
      t.database.db.execute(statement).then(
        () => 'done',
        (err: { cause?: Error }) => err.cause?.message,
      );
    expect(await refusal(sql`update audit_events set action = 'forged' where id = ${id}`)).toBe(
      'audit_events is append-only: UPDATE refused',
    );
    expect(await refusal(sql`delete from audit_events where id = ${id}`)).toBe(
      'audit_events is append-only: DELETE refused',
    );
    expect(await refusal(sql`truncate audit_events`)).toBe('audit_events is append-only: TRUNCATE refused');
    expect((await latest()).id).toBe(id);
  });
});

describe('reading the log', () => {
  it('filters by project, person and Lagos date range, newest first, paged by cursor', async () => {
    const byProject = (await as(admin, 'GET', `/api/audit/events?projectId=${project._id}`)).json();
    expect(byProject.events.map((e: { action: string }) => e.action)).toEqual([
      'project.restore',
      'project.archive',
      'project.update',
      'project.status',
      'project.create',
    ]);
    const byPerson = (await as(admin, 'GET', `/api/audit/events?actorId=${client.id}`)).json();
    expect(byPerson.events).toEqual([]);
    // The fake clock stands on 22 Nov 2026 (Lagos): the day before holds nothing, the day itself everything.
    const day = (from: string, to: string) =>
      as(admin, 'GET', `/api/audit/events?from=${from}&to=${to}`).then((r) => r.json().events.length);
    expect(await day('2026-11-21', '2026-11-21')).toBe(0);
    expect(await day('2026-11-22', '2026-11-22')).toBe((await allEvents()).length);
    expect((await as(admin, 'GET', '/api/audit/events?from=2026-11-23&to=2026-11-22')).statusCode).toBe(400);
  });

  it('pages with a keyset cursor without skipping or repeating a row', async () => {
    for (let i = 0; i < 55; i++) {
      t.clock.advance(1000);
      await as(admin, 'PATCH', `/api/projects/${project._id}`, { name: `Quay ${i}` });
    }
    const first = (await as(admin, 'GET', '/api/audit/events')).json();
    expect(first.events).toHaveLength(50);
    const second = (await as(admin, 'GET', `/api/audit/events?cursor=${encodeURIComponent(first.nextCursor)}`)).json();
    const ids = [...first.events, ...second.events].map((e: { id: string }) => e.id);
    expect(ids).toEqual((await allEvents()).map((e) => e.id));
    expect(second.nextCursor).toBeNull();
  });

  it('exports the filtered log as a CSV download', async () => {
    t.clock.advance(1000);
    await as(admin, 'PATCH', `/api/projects/${project._id}`, { name: '=HYPERLINK("x"), "quoted"' });
    const res = await as(admin, 'GET', `/api/audit/events.csv?projectId=${project._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit-log-2026-11-22.csv"');
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Time (Lagos),Who,Address,Action,Kind,Id,Project id,Project,What changed');
    expect(lines).toHaveLength(1 + 5 + 55 + 1);
    expect(lines[1]).toContain(`admin: ${admin.name},${ADDRESS},project.update,project,${project._id},${project._id},`);
    expect(lines[1]).toContain('"name: ""Quay 54"" → ""=HYPERLINK(\\""x\\""), \\""quoted\\"""""');
  });

  it('names the clients and projects a change points at, and shows budgets in naira', async () => {
    t.clock.advance(1000);
    const made = await as(admin, 'POST', '/api/projects', { name: 'Before Naming', code: 'NAMED-1', clientId: client.id, budget: 1000 });
    const id = made.json().project._id;
    t.clock.advance(1000);
    await as(admin, 'PATCH', `/api/projects/${id}`, { name: 'Named Quay', budget: 7654321.5 });
    const page = (await as(admin, 'GET', `/api/audit/events?projectId=${id}`)).json();
    const [update, create] = page.events;
    expect(page.names).toEqual({ [id]: 'Named Quay', [client.id]: 'Renamed Client Ltd' });
    expect(describeChange(create.before, create.after, page.names)).toContain(`clientId: (none) → "Renamed Client Ltd"`);
    expect(describeChange(update.before, update.after, page.names)).toBe(
      'name: "Before Naming" → "Named Quay"; budget: "₦1,000.00" → "₦7,654,321.50"',
    );
    const csv = (await as(admin, 'GET', `/api/audit/events.csv?projectId=${id}`)).body.split('\r\n');
    expect(csv[1]).toContain(`,${id},Named Quay,"name: ""Before Naming"" → ""Named Quay""; budget: ""₦1,000.00""`);
  });

  it('escapes cells and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@']) expect(csvCell(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
  });

  // Decision 272: reading the log needs 'audit.read', which only owners and admins hold.
  it('lets owners and admins read it, and refuses the other staff roles, clients and anonymous callers', async () => {
    const staff = async (staffRole: StaffRole) => {
      const user = await createUser(t, { role: 'admin', staffRole });
      return { headers: { cookie: (await signIn(t, user, 'admin')).cookie, origin: SAME_ORIGIN } };
    };
    const someClient = await actor(t, 'client');
    const answers: string[] = [];
    for (const url of ['/api/audit/events', '/api/audit/filters', '/api/audit/events.csv']) {
      for (const staffRole of STAFF_ROLES) {
        const res = await t.app.inject({ method: 'GET', url, headers: (await staff(staffRole)).headers, remoteAddress: ADDRESS });
        answers.push(`${url} ${staffRole} ${res.statusCode}${res.statusCode === 403 ? ` ${res.json().message}` : ''}`);
      }
      answers.push(`${url} client ${(await as(someClient, 'GET', url)).statusCode}`);
      answers.push(`${url} anonymous ${(await t.app.inject({ method: 'GET', url })).statusCode}`);
    }
    const expected = (url: string) => [
      `${url} owner 200`,
      `${url} admin 200`,
      `${url} project_manager 403 ${DENIED.role}`,
      `${url} editor 403 ${DENIED.role}`,
      `${url} support 403 ${DENIED.role}`,
      `${url} client 403`,
      `${url} anonymous 401`,
    ];
    expect(answers).toEqual(['/api/audit/events', '/api/audit/filters', '/api/audit/events.csv'].flatMap(expected));
  });
});
