import { and, count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DEACTIVATED } from '../../../common/schemas/auth.ts';
import { LAST_OWNER_REFUSED, STAFF_EMAIL_TAKEN } from '../../../common/schemas/staff.ts';
import type { StaffRole } from '../../../common/permissions.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { authTokens } from '../../db/schema/auth.ts';
import { mailOutbox } from '../../db/schema/mail.ts';
import { sessions, users } from '../../db/schema/users.ts';
import { DENIED } from '../../plugins/access.ts';
import { requestPasswordReset } from '../auth/password-changes.service.ts';
import { issueLinkToken } from '../auth/link-tokens.ts';
import { SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { meetingAtLockedRow } from '../../../tests/helpers/row-lock.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';

// Decision 275: the staff screen's routes (owners only), deactivation and the last-owner rule.

let t: TestApp;
let owner: Actor;

async function staffActor(role: StaffRole, name?: string): Promise<Actor> {
  const user = await createUser(t, { role: 'admin', staffRole: role, name });
  const { cookie } = await signIn(t, user, 'admin');
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

const call = (who: Actor, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

const stored = async () => ({
  users: (await t.database.db.select({ n: count() }).from(users))[0].n,
  audit: (await t.database.db.select({ n: count() }).from(auditEvents))[0].n,
  staff: await t.database.db.select({ id: users.id, role: users.staffRole, off: users.deactivatedAt }).from(users).where(eq(users.role, 'admin')).orderBy(users.id),
});

const eventsOf = (id: string) => t.database.db.select().from(auditEvents).where(eq(auditEvents.entityId, id)).orderBy(auditEvents.at);

beforeAll(async () => {
  t = await createTestApp();
  owner = await staffActor('owner', 'Ngozi Owner');
});
afterAll(() => t?.close());

describe('the staff list', () => {
  it('shows each staff account with role, status, last sign-in and second factor, and no client', async () => {
    const editor = await staffActor('editor', 'Emeka Editor');
    await createUser(t, { role: 'client', name: 'Not Staff' });
    const res = await call(owner, 'GET', '/api/staff');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().staff as { _id: string; name: string }[];
    expect(list.map((m) => m.name)).not.toContain('Not Staff');
    expect(list.find((m) => m._id === editor.id)).toEqual({
      _id: editor.id,
      name: 'Emeka Editor',
      email: expect.stringContaining('@example.test'),
      role: 'editor',
      status: 'active',
      invited: false,
      lastSignInAt: t.clock.now().toISOString(),
      mfaEnabled: false,
    });
    // The admin screens learn the caller's role from GET /auth/me (the 'Staff' place is for owners).
    const me = await call(editor, 'GET', '/api/auth/me');
    expect(me.json().user).toMatchObject({ _id: editor.id, role: 'admin', staffRole: 'editor' });
  });
});

describe('every staff route is for owners only', () => {
  const routes: [string, 'GET' | 'POST' | 'PATCH', (id: string) => string, object | undefined][] = [
    ['list', 'GET', () => '/api/staff', undefined],
    ['invite', 'POST', () => '/api/staff', { name: 'Sneaky Invite', email: 'sneaky@example.test', role: 'owner' }],
    ['role', 'PATCH', (id) => `/api/staff/${id}/role`, { role: 'owner' }],
    ['status', 'PATCH', (id) => `/api/staff/${id}/status`, { status: 'deactivated' }],
  ];
  for (const role of ['admin', 'project_manager', 'editor', 'support'] as const) {
    it(`${role}: 403 on each route, nothing changed`, async () => {
      const caller = await staffActor(role);
      const before = await stored();
      for (const [name, method, url, body] of routes) {
        const res = await call(caller, method, url(caller.id), body);
        expect(res.statusCode, `${name}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ success: false, code: 'FORBIDDEN', message: DENIED.role });
      }
      expect(await stored()).toEqual(before);
    });
  }
});

describe('inviting a staff member', () => {
  it('creates an account with the role and no password, e-mails a set-password link, and records the invitation', async () => {
    const res = await call(owner, 'POST', '/api/staff', { name: '  Sade Support ', email: 'Sade.Support@Example.test', role: 'support' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.member).toMatchObject({ name: 'Sade Support', email: 'sade.support@example.test', role: 'support', status: 'active', invited: true, lastSignInAt: null, mfaEnabled: false });
    expect(body.url).toMatch(/\/account\/set-password#token=/);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, body.member._id));
    expect(row).toMatchObject({ role: 'admin', staffRole: 'support', passwordHash: null, deactivatedAt: null });
    const [mail] = await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'sade.support@example.test'));
    expect(mail).toMatchObject({ kind: 'staff-invitation' });
    expect(mail.text).toContain(body.url);
    expect(await eventsOf(body.member._id)).toMatchObject([
      { action: 'staff.invite', actorId: owner.id, before: null, after: { name: 'Sade Support', email: 'sade.support@example.test', role: 'support', status: 'active' } },
    ]);

    // The link sets the password; signing in is then an admin sign-in like any other.
    const token = new URL(body.url).hash.slice('#token='.length);
    const accepted = await t.app.inject({ method: 'POST', url: '/api/auth/invitation/accept', payload: { token, password: 'a long staff passphrase 7' } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ role: 'admin' });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email: 'sade.support@example.test', password: 'a long staff passphrase 7' } });
    expect(login.statusCode, login.body).toBe(200);
  });

  const invalid: [string, object, number][] = [
    ['no name', { name: '', email: 'x1@example.test', role: 'editor' }, 400],
    ['a name with a line break', { name: 'Two\nLines', email: 'x2@example.test', role: 'editor' }, 400],
    ['a bad e-mail', { name: 'Bad Mail', email: 'not-an-address', role: 'editor' }, 400],
    ['an unknown role', { name: 'Bad Role', email: 'x3@example.test', role: 'superuser' }, 400],
    ['no role', { name: 'No Role', email: 'x4@example.test' }, 400],
    ['an unknown field', { name: 'Extra', email: 'x5@example.test', role: 'editor', staffRole: 'owner' }, 400],
  ];
  for (const [what, payload, status] of invalid) {
    it(`refuses ${what} with ${status}, nothing stored`, async () => {
      const before = await stored();
      const res = await call(owner, 'POST', '/api/staff', payload);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      expect(await stored()).toEqual(before);
    });
  }

  it('refuses an e-mail address any account already has (a client too) with 409, nothing stored', async () => {
    const client = await createUser(t, { role: 'client', email: 'taken@example.test' });
    const before = await stored();
    const res = await call(owner, 'POST', '/api/staff', { name: 'Taken', email: 'TAKEN@example.test', role: 'editor' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'CONFLICT', message: STAFF_EMAIL_TAKEN });
    expect(await stored()).toEqual(before);
    expect(client.id).toBeTruthy();
  });
});

describe('changing a role', () => {
  it('changes it at once for the next request and records before and after', async () => {
    const member = await staffActor('support');
    expect((await call(member, 'GET', '/api/audit/events')).statusCode).toBe(403);
    const res = await call(owner, 'PATCH', `/api/staff/${member.id}/role`, { role: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().member).toMatchObject({ _id: member.id, role: 'admin' });
    expect((await call(member, 'GET', '/api/audit/events')).statusCode).toBe(200);
    expect(await eventsOf(member.id)).toMatchObject([{ action: 'staff.role', actorId: owner.id, before: { role: 'support' }, after: { role: 'admin' } }]);
  });

  it('refuses an unknown role (400), an unknown person or a client (404), nothing stored', async () => {
    const member = await staffActor('editor');
    const client = await createUser(t, { role: 'client' });
    const before = await stored();
    expect((await call(owner, 'PATCH', `/api/staff/${member.id}/role`, { role: 'boss' })).statusCode).toBe(400);
    expect((await call(owner, 'PATCH', `/api/staff/not-a-uuid/role`, { role: 'editor' })).statusCode).toBe(400);
    expect((await call(owner, 'PATCH', `/api/staff/${client.id}/role`, { role: 'editor' })).statusCode).toBe(404);
    expect((await call(owner, 'PATCH', `/api/staff/${crypto.randomUUID()}/role`, { role: 'editor' })).statusCode).toBe(404);
    expect(await stored()).toEqual(before);
  });
});

describe('deactivating and reactivating', () => {
  it('ends every session and open live stream at once, refuses sign-in and password resets, and records both changes', async () => {
    const member = await staffActor('project_manager', 'Dayo Deactivated');
    const email = (await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, member.id)))[0].email;
    const second = await signIn(t, member, 'admin');
    const { token: resetToken } = await issueLinkToken(t.app, member.id, 'password-reset');
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await fetch(`${base}/api/messages/stream`, { headers: { cookie: member.headers.cookie, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    const streamEnds = (async () => {
      for (;;) if ((await reader.read()).done) return 'ended';
    })();

    const res = await call(owner, 'PATCH', `/api/staff/${member.id}/status`, { status: 'deactivated' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().member).toMatchObject({ status: 'deactivated' });
    // Closed through the cross-process channel, long before the stream's next session check.
    expect(await Promise.race([streamEnds, new Promise((r) => setTimeout(() => r('still open'), 3000))])).toBe('ended');

    for (const cookie of [member.headers.cookie, second.cookie]) {
      const next = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
      expect(next.statusCode).toBe(401);
    }
    expect((await t.database.db.select({ n: count() }).from(sessions).where(and(eq(sessions.userId, member.id), isNull(sessions.revokedAt))))[0].n).toBe(0);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(401);
    expect(login.json().message).toBe(ACCOUNT_DEACTIVATED);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email, password: 'not the password at all' } });
    expect(wrong.json().message).not.toBe(ACCOUNT_DEACTIVATED);
    // A reset link from before no longer works, and no new one is issued.
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token: resetToken, password: 'a long new passphrase 9' } });
    expect(reset.statusCode).toBe(404);
    await requestPasswordReset(t.app, email);
    expect((await t.database.db.select({ n: count() }).from(authTokens).where(and(eq(authTokens.userId, member.id), isNull(authTokens.revokedAt))))[0].n).toBe(0);

    const back = await call(owner, 'PATCH', `/api/staff/${member.id}/status`, { status: 'active' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().member).toMatchObject({ status: 'active' });
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email, password: TEST_PASSWORD } });
    expect(again.statusCode, again.body).toBe(200);
    expect(await eventsOf(member.id)).toMatchObject([
      { action: 'staff.deactivate', actorId: owner.id, before: { status: 'active' }, after: { status: 'deactivated' } },
      { action: 'staff.reactivate', actorId: owner.id, before: { status: 'deactivated' }, after: { status: 'active' } },
    ]);
  });

  it('refuses an unknown status (400) and a missing person (404), nothing stored', async () => {
    const before = await stored();
    expect((await call(owner, 'PATCH', `/api/staff/${owner.id}/status`, { status: 'gone' })).statusCode).toBe(400);
    expect((await call(owner, 'PATCH', `/api/staff/${crypto.randomUUID()}/status`, { status: 'deactivated' })).statusCode).toBe(404);
    expect(await stored()).toEqual(before);
  });
});

describe('the last active owner', () => {
  let app: TestApp;
  const patch = (who: Actor, id: string, what: 'role' | 'status', payload: object) =>
    app.app.inject({ method: 'PATCH', url: `/api/staff/${id}/${what}`, headers: who.headers, payload });
  async function ownerIn(name: string): Promise<Actor> {
    const user = await createUser(app, { role: 'admin', staffRole: 'owner', name });
    const { cookie } = await signIn(app, user, 'admin');
    return { id: user.id, name, headers: { cookie, origin: SAME_ORIGIN } };
  }
  const owners = async () =>
    (await app.database.db.select({ id: users.id }).from(users).where(and(eq(users.staffRole, 'owner'), isNull(users.deactivatedAt)))).map((r) => r.id).sort();
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());

  it('cannot be demoted or deactivated, not even by themselves (409, nothing stored); a second owner makes both possible', async () => {
    const only = await ownerIn('Only Owner');
    for (const [what, body] of [['role', { role: 'admin' }], ['status', { status: 'deactivated' }]] as const) {
      const res = await patch(only, only.id, what, body);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ success: false, code: 'CONFLICT', message: LAST_OWNER_REFUSED });
    }
    expect(await owners()).toEqual([only.id]);
    expect(await app.database.db.select().from(auditEvents)).toEqual([]);
    // A deactivated owner does not count: the rule is about who can still act.
    const away = await ownerIn('Away Owner');
    expect((await patch(only, away.id, 'status', { status: 'deactivated' })).statusCode).toBe(200);
    expect((await patch(only, only.id, 'role', { role: 'editor' })).statusCode).toBe(409);
    expect((await patch(only, away.id, 'status', { status: 'active' })).statusCode).toBe(200);
    const demoted = await patch(only, only.id, 'role', { role: 'admin' });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(await owners()).toEqual([away.id]);
  });

  it('two concurrent demotions of the last two owners: exactly one passes', async () => {
    await app.database.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.staffRole, 'owner'));
    const a = await ownerIn('Owner A');
    const b = await ownerIn('Owner B');
    const [first] = [a.id, b.id].sort();
    // Both requests wait at the first owner's row lock, then go on together.
    const results = await meetingAtLockedRow(app, 'users', first, 2, () =>
      Promise.all([patch(a, b.id, 'role', { role: 'admin' }), patch(b, a.id, 'role', { role: 'admin' })]),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await owners()).toHaveLength(1);
    expect(await app.database.db.select().from(auditEvents).where(eq(auditEvents.action, 'staff.role'))).toHaveLength(2);
  });
});
