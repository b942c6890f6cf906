import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { messages } from '../../db/schema/messages.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { actor, createProjectVia, multipart, type Actor } from '../../../tests/helpers/portal.ts';

// Stored last activity (issue 22, decision 258): the activity order of the client and project lists
// reads users.last_activity_at and projects.last_activity_at, which the database keeps in the same
// transaction as the write that is the activity, and never moves backwards.

let t: TestApp;
let admin: Actor;
const clients: Actor[] = [];
const projectsOf = new Map<string, string[]>();
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await actor(t, 'admin');
  // Three clients of two projects each, a minute apart: the last made is the most recent at first.
  for (const name of ['Adaeze', 'Bola', 'Chidi']) {
    t.clock.advance(MINUTE);
    const client = await actor(t, 'client', name);
    clients.push(client);
    const ids: string[] = [];
    // A second apart, the second made first in the list: no tie for the id to break.
    for (let i = 0; i < 2; i++, t.clock.advance(1000)) ids.unshift((await createProjectVia(t, admin, client.id))._id);
    projectsOf.set(client.id, ids);
  }
});
afterAll(() => t?.close());

async function ids(url: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url, headers: admin.headers });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  return (body.clients ?? body.projects).map((r: { _id: string }) => r._id);
}
const clientOrder = () => ids('/api/users/clients?sort=activity&pageSize=100');
const projectOrder = (clientId: string) => ids(`/api/projects/client/${clientId}?sort=activity&pageSize=100`);

async function stored(table: 'users' | 'projects', id: string): Promise<Date> {
  const { rows } = await t.database.pool.query<{ at: Date }>(`select last_activity_at as at from ${table} where id = $1`, [id]);
  return rows[0].at;
}

/** Resolves once a session of this database waits on a lock (the second writer at the project row). */
async function untilLockWaiter() {
  for (let i = 0; i < 500; i++) {
    const { rows } = await t.database.pool.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the second writer never waited on the row');
}

describe('the activity order reads the stored last activity', () => {
  it('a new message moves its client and its project to the top of the activity order', async () => {
    const [first] = clients;
    const [, older] = projectsOf.get(first.id)!;
    expect((await clientOrder())[0]).not.toBe(first.id);
    t.clock.advance(MINUTE);
    const res = await t.app.inject({ method: 'POST', url: '/api/messages', headers: first.headers, payload: { projectId: older, text: 'The crane arrives on Monday', attachments: [] } });
    expect(res.statusCode, res.body).toBe(201);
    expect((await clientOrder())[0]).toBe(first.id);
    expect((await projectOrder(first.id))[0]).toBe(older);
    expect((await stored('users', first.id)).toISOString()).toBe(t.clock.now().toISOString());
  });

  it('a new progress report moves its project to the top of its list and its client to the top of the clients', async () => {
    const second = clients[1];
    const [newer, older] = projectsOf.get(second.id)!;
    expect((await projectOrder(second.id))[0]).toBe(newer);
    expect((await clientOrder())[0]).not.toBe(second.id);
    t.clock.advance(MINUTE);
    const body = await multipart({ date: '2026-11-20', projectId: older, projectCode: 'X', project: 'Site', tasks: 'Survey', progress: 'Started' });
    const res = await t.app.inject({ method: 'POST', url: '/api/reports', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(201);
    expect((await projectOrder(second.id))[0]).toBe(older);
    expect((await clientOrder())[0]).toBe(second.id);
  });

  it('a change to a project counts for the project and its client, as a change to the client counts for it', async () => {
    const third = clients[2];
    const [, older] = projectsOf.get(third.id)!;
    t.clock.advance(MINUTE);
    const res = await t.app.inject({ method: 'PUT', url: `/api/projects/${older}/status`, headers: admin.headers, payload: { status: 'in-progress' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await projectOrder(third.id))[0]).toBe(older);
    expect((await clientOrder())[0]).toBe(third.id);
    t.clock.advance(MINUTE);
    const [first] = clients;
    const changed = await t.app.inject({ method: 'PUT', url: `/api/users/clients/${first.id}/status`, headers: admin.headers, payload: { status: 'in-progress' } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await clientOrder())[0]).toBe(first.id);
  });

  it('messages sent at once leave the latest time on the project and the client', async () => {
    const second = clients[1];
    const [project] = projectsOf.get(second.id)!;
    t.clock.advance(MINUTE);
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/messages', headers: i % 2 ? second.headers : admin.headers, payload: { projectId: project, text: `Note ${i}`, attachments: [] } }),
      ),
    );
    expect(sent.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    const { rows } = await t.database.pool.query<{ at: Date }>('select max(created_at) as at from messages where project_id = $1', [project]);
    expect(await stored('projects', project)).toEqual(rows[0].at);
    expect(await stored('users', second.id)).toEqual(rows[0].at);
  });

  it('an earlier message committed after a later one does not move the time back', async () => {
    const third = clients[2];
    const [project] = projectsOf.get(third.id)!;
    const later = new Date(t.clock.now().getTime() + 10 * MINUTE);
    const earlier = new Date(t.clock.now().getTime() + 5 * MINUTE);
    const insert = 'insert into messages (project_id, sender_id, text, created_at) values ($1, $2, $3, $4)';
    const first = await t.database.pool.connect();
    const second = await t.database.pool.connect();
    try {
      await first.query('begin');
      await first.query(insert, [project, third.id, 'Later', later]);
      await second.query('begin');
      // Waits on the project row the first transaction's trigger holds, then finds a newer time there.
      const waiting = second.query(insert, [project, third.id, 'Earlier', earlier]).then(() => second.query('commit'));
      await untilLockWaiter();
      await first.query('commit');
      await waiting;
    } finally {
      first.release();
      second.release();
    }
    expect(await stored('projects', project)).toEqual(later);
    expect(await stored('users', third.id)).toEqual(later);
    // A removed message keeps its place in the thread, so the time stays (as the computed order did).
    await t.app.db.execute(sql`update messages set deleted_at = now() where project_id = ${project} and text = 'Later'`);
    expect(await stored('projects', project)).toEqual(later);
  });

  it('two writers that both hold the write lock of a project then both write to it: neither deadlocks', async () => {
    // Every write first locks the project and client against archiving (lockWritableProject); the
    // triggers then update those rows. With SHARE locks the second writer's update waited for the
    // first's lock and the first's for the second's: PostgreSQL aborted one (a 500 to its caller).
    const third = clients[2];
    const [project] = projectsOf.get(third.id)!;
    let release!: () => void;
    const bothLocked = new Promise<void>((resolve) => (release = resolve));
    let locked = 0;
    const writer = (text: string) =>
      t.database.db.transaction(async (tx) => {
        await lockWritableProject(tx, { _id: third.id, role: 'client', staffRole: null }, project);
        if (++locked === 2) release();
        await bothLocked;
        // Later than any activity so far, so the triggers do update the project and client rows.
        await tx.insert(messages).values({ projectId: project, senderId: third.id, text, createdAt: new Date('2100-01-01T00:00:00Z') });
      });
    const results = await Promise.allSettled([writer('First'), writer('Second')]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
  });
});
