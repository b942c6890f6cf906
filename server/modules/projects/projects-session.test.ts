import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/users.ts';
import { DENIED } from '../../plugins/access.ts';
import { createSession } from '../auth/sessions.service.ts';
import { createTestApp, createUser, type TestApp } from '../../../tests/helpers/test-app.ts';
import { createProjectVia, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';

// A client's project list reads the session and the page in one statement (decision 171). These
// prove that every rule of reading them apart still holds on that path: expired (idle, absolute)
// and revoked sessions, half-signed-in admins, another client's list, staff, the once-a-minute
// last-seen write that keeps an active session alive, and the input the access layer reads before
// validation. Its own file: the tests move the clock by days.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestApp;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  adminId = (await createUser(t, { role: 'admin', name: 'Staff' })).id;
});
afterAll(() => t?.close());

async function sessionOf(userId: string, role: 'admin' | 'client', mfaPending = false): Promise<Actor & { token: string; sessionId: string }> {
  const { token, id } = await createSession(t.app, { userId, role, mfaPending });
  return { id: userId, name: '', token, sessionId: id, headers: { cookie: `sid=${token}`, origin: SAME_ORIGIN } };
}

async function clientWithProjects(name: string, count: number) {
  const user = await createUser(t, { role: 'client', name });
  const session = await sessionOf(user.id, 'client');
  const created = [];
  // A fresh staff session each time: the tests move the clock past any earlier one's limits.
  const admin = await sessionOf(adminId, 'admin');
  for (let i = 0; i < count; i++) {
    created.push(await createProjectVia(t, admin, user.id, { name: `${name} ${i}` }));
    t.clock.advance(1000);
  }
  return { user, session, created };
}

const list = (clientId: string, headers: Record<string, string>, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/projects/client/${clientId}${query}`, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const lastSeenOf = async (sessionId: string) =>
  (await t.database.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, sessionId)))[0].at;

describe('a client project list read with its session', () => {
  it('gives a client its own list, by cookie and by Bearer token, from one round trip to the database', async () => {
    const { user, session } = await clientWithProjects('One Trip', 3);
    expect((await list(user.id, session.headers)).statusCode).toBe(200);
    let acquired = 0;
    const count = () => void acquired++;
    t.app.pool.on('acquire', count);
    const byCookie = await list(user.id, session.headers);
    t.app.pool.off('acquire', count);
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.json().projects.map((p: { name: string }) => p.name)).toEqual(['One Trip 2', 'One Trip 1', 'One Trip 0']);
    expect(byCookie.json().pagination).toEqual({ page: 1, pageSize: 50, total: 3, hasMore: false });
    // One connection taken from the pool for the session and the page together (no last-seen write
    // was due: the session is seconds old).
    expect(acquired).toBe(1);
    const byBearer = await list(user.id, bearer(session.token));
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.body).toBe(byCookie.body);
  });

  it('refuses a revoked session with 401, as /api/auth/me does', async () => {
    const { user, session } = await clientWithProjects('Revoked', 1);
    expect((await list(user.id, session.headers)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: session.headers });
    expect(out.statusCode).toBe(200);
    const res = await list(user.id, bearer(session.token));
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(DENIED.signIn);
    expect(res.body).not.toContain('Revoked 0');
  });

  it('refuses a client session idle for 14 days, and one 30 days old however active; an active one is kept alive by the list alone', async () => {
    const { user, session } = await clientWithProjects('Sliding', 1);
    const idle = await sessionOf(user.id, 'client');
    const firstSeen = await lastSeenOf(session.sessionId);
    // Active every 13 days through the list only: each read moves last-seen on (the idle limit never hits).
    t.clock.advance(13 * DAY);
    expect((await list(user.id, bearer(session.token))).statusCode).toBe(200);
    expect((await lastSeenOf(session.sessionId)).getTime()).toBe(t.clock.now().getTime());
    expect((await lastSeenOf(session.sessionId)).getTime()).toBeGreaterThan(firstSeen.getTime());
    // Within a minute of the last write, a read does not write again.
    t.clock.advance(30_000);
    expect((await list(user.id, bearer(session.token))).statusCode).toBe(200);
    expect((await lastSeenOf(session.sessionId)).getTime()).toBe(t.clock.now().getTime() - 30_000);
    // The other session, never used, is now past its idle limit.
    t.clock.advance(DAY + MINUTE);
    const idleRes = await list(user.id, bearer(idle.token));
    expect(idleRes.statusCode).toBe(401);
    expect(idleRes.body).not.toContain('Sliding 0');
    expect((await list(user.id, bearer(session.token))).statusCode).toBe(200);
    t.clock.advance(13 * DAY);
    expect((await list(user.id, bearer(session.token))).statusCode).toBe(200);
    // 30 days since the session began, however active.
    t.clock.advance(3 * DAY);
    expect((await list(user.id, bearer(session.token))).statusCode).toBe(401);
  });

  it("answers a client asking for another client's list with the same 404 as a missing client", async () => {
    const a = await clientWithProjects('Owner A', 1);
    const b = await clientWithProjects('Stranger B', 1);
    const other = await list(a.user.id, b.session.headers);
    const missing = await list('00000000-0000-4000-8000-000000000000', b.session.headers);
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(other.json()).toEqual(missing.json());
    expect(other.body).not.toContain('Owner A');
    // The same id in upper case is still another client's list.
    expect((await list(a.user.id.toUpperCase(), b.session.headers)).statusCode).toBe(404);
  });

  it("gives staff any client's list with the budget, and 404 for an id that is not a client", async () => {
    const staff = await sessionOf((await createUser(t, { role: 'admin' })).id, 'admin');
    const { user } = await clientWithProjects('Staff View', 2);
    const res = await list(user.id, staff.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().projects).toHaveLength(2);
    for (const p of res.json().projects) expect(p).toMatchObject({ budget: 2500000, clientId: { _id: user.id, name: 'Staff View' } });
    expect((await list(staff.id, staff.headers)).statusCode).toBe(404);
    expect((await list('00000000-0000-4000-8000-000000000000', staff.headers)).statusCode).toBe(404);
  });

  it('refuses an idle staff session (2 hours) and a half-signed-in admin with 401', async () => {
    const staffUser = await createUser(t, { role: 'admin' });
    const staff = await sessionOf(staffUser.id, 'admin');
    const pending = await sessionOf(staffUser.id, 'admin', true);
    const { user } = await clientWithProjects('Staff Idle', 1);
    const pendingRes = await list(user.id, pending.headers);
    expect(pendingRes.statusCode).toBe(401);
    expect(pendingRes.json().message).toBe(DENIED.mfaPending);
    t.clock.advance(2 * 60 * MINUTE + MINUTE);
    const idleRes = await list(user.id, staff.headers);
    expect(idleRes.statusCode).toBe(401);
    expect(idleRes.body).not.toContain('Staff Idle 0');
  });

  it('pages as the query asks, and leaves input it cannot read to validation (400), signed in or not', async () => {
    const { user, session } = await clientWithProjects('Paged', 3);
    const second = await list(user.id, session.headers, '?pageSize=2&page=2');
    expect(second.json()).toMatchObject({ projects: [{ name: 'Paged 0' }], pagination: { page: 2, pageSize: 2, total: 3, hasMore: false } });
    const beyond = await list(user.id, session.headers, '?pageSize=2&page=7');
    expect(beyond.json()).toMatchObject({ projects: [], pagination: { total: 3, hasMore: false } });
    for (const query of ['?pageSize=0', '?pageSize=-1', '?pageSize=101', '?page=0', '?page=1.5', '?page=abc', '?page=1&page=2', '?page=100001']) {
      const res = await list(user.id, session.headers, query);
      expect(res.statusCode, query).toBe(400);
    }
    expect((await list('not-a-uuid', session.headers)).statusCode).toBe(400);
    // Without a session the access layer answers first, whatever the input.
    expect((await list('not-a-uuid', {})).statusCode).toBe(401);
    expect((await list(user.id, {}, '?pageSize=-1')).statusCode).toBe(401);
  });
});
