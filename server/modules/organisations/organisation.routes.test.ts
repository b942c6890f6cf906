import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../../common/permissions.ts';
import { ORGANISATION_TEXTS } from '../../../common/schemas/organisation.ts';
import { auditEvents } from '../../db/schema/audit.ts';
import { projectMemberLimits } from '../../db/schema/projects.ts';
import { clientOrganisations, users } from '../../db/schema/users.ts';
import { appWithAdmin } from '../../../tests/helpers/actors.ts';
import { actor, createProjectVia, SAME_ORIGIN, type Actor } from '../../../tests/helpers/portal.ts';
import { createUser, signIn, type TestApp } from '../../../tests/helpers/test-app.ts';
import { openEventStream } from '../../../tests/helpers/event-stream.ts';

// A client organisation's admins manage its people from the portal (decision 279).

let t: TestApp;
let staff: Actor;

beforeAll(async () => ({ t, admin: staff } = await appWithAdmin()));
afterAll(() => t?.close());

/** A member of an organisation, signed in. */
async function member(organisationId: string, memberRole: MemberRole): Promise<Actor> {
  const user = await createUser(t, { role: 'client', organisationId, memberRole });
  const { cookie } = await signIn(t, user, 'client');
  return { id: user.id, name: user.name, headers: { cookie, origin: SAME_ORIGIN } };
}

const call = (who: Actor, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api${url}`, headers: who.headers, ...(payload ? { payload } : {}) });

const countRows = async () => ({
  users: (await t.database.db.select({ id: users.id }).from(users)).length,
  limits: (await t.database.db.select({ u: projectMemberLimits.userId }).from(projectMemberLimits)).length,
  audit: (await t.database.db.select({ id: auditEvents.id }).from(auditEvents)).length,
});

describe('the organisation members routes', () => {
  it('lets a client admin invite a colleague with a role and project limits, list, change and remove them, each audited', async () => {
    const founder = await actor(t, 'client', 'Harbour Logistics Ltd');
    const quay = await createProjectVia(t, staff, founder.id);
    await createProjectVia(t, staff, founder.id);

    const invited = await call(founder, 'POST', '/organisation/members', { name: 'Bola Ade', email: 'Bola@Example.test', memberRole: 'member', projectIds: [quay._id] });
    expect(invited.statusCode).toBe(201);
    const colleague = invited.json().member;
    expect(colleague).toMatchObject({ name: 'Bola Ade', email: 'bola@example.test', memberRole: 'member', projectIds: [quay._id], invitation: 'pending', founder: false });
    const [row] = await t.database.db.select({ role: users.role, organisationId: users.organisationId }).from(users).where(eq(users.id, colleague._id));
    expect(row).toEqual({ role: 'client', organisationId: founder.id });

    const listed = (await call(founder, 'GET', '/organisation/members')).json();
    expect(listed.members.map((m: { name: string; memberRole: string; founder: boolean }) => [m.name, m.memberRole, m.founder])).toEqual([
      ['Harbour Logistics Ltd', 'admin', true],
      ['Bola Ade', 'member', false],
    ]);
    expect(listed.projects).toHaveLength(2);

    const changed = await call(founder, 'PATCH', `/organisation/members/${colleague._id}`, { memberRole: 'approver', projectIds: [] });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().member).toMatchObject({ memberRole: 'approver', projectIds: [] });

    const removed = await call(founder, 'DELETE', `/organisation/members/${colleague._id}`);
    expect(removed.statusCode).toBe(200);
    expect((await call(founder, 'GET', '/organisation/members')).json().members).toHaveLength(1);
    const actions = await t.database.db.select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.entityId, colleague._id)).orderBy(auditEvents.at, auditEvents.id);
    expect(actions.map((a) => a.action).sort()).toEqual(['member.invite', 'member.limits', 'member.remove', 'member.role']);
  });

  it('refuses bad input with a 4xx and stores nothing', async () => {
    const founder = await actor(t, 'client');
    const other = await actor(t, 'client');
    const foreign = await createProjectVia(t, staff, other.id);
    const before = await countRows();
    const refused = [
      await call(founder, 'POST', '/organisation/members', { name: '', email: 'not-an-address', memberRole: 'member' }),
      await call(founder, 'POST', '/organisation/members', { name: 'A', email: 'a@example.test', memberRole: 'owner' }),
      await call(founder, 'POST', '/organisation/members', { name: 'A', email: 'a@example.test', memberRole: 'member', extra: 1 }),
      await call(founder, 'POST', '/organisation/members', { name: 'A', email: 'a@example.test', memberRole: 'member', projectIds: [foreign._id] }),
      await call(founder, 'POST', '/organisation/members', { name: 'A', email: (await t.database.db.select({ e: users.email }).from(users).where(eq(users.id, other.id)))[0].e, memberRole: 'member' }),
      await call(founder, 'PATCH', `/organisation/members/${founder.id}`, {}),
      await call(founder, 'PATCH', `/organisation/members/${founder.id}`, { projectIds: [foreign._id] }),
      await call(founder, 'PATCH', '/organisation/members/not-a-uuid', { memberRole: 'member' }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([400, 400, 400, 400, 409, 400, 400, 400]);
    for (const r of refused) expect(r.json()).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
    expect(refused[3].json().message).toBe(ORGANISATION_TEXTS.foreignProject);
    expect(await countRows()).toEqual(before);
  });

  it('refuses a member without members.manage (403) and answers 404 for another organisation\'s member', async () => {
    const founder = await actor(t, 'client');
    const plain = await member(founder.id, 'approver');
    const stranger = await actor(t, 'client');
    const strangersColleague = await member(stranger.id, 'member');
    for (const [method, url] of [['GET', '/organisation/members'], ['PATCH', `/organisation/members/${founder.id}`], ['DELETE', `/organisation/members/${founder.id}`]] as const) {
      const res = await call(plain, method, url, method === 'PATCH' ? { memberRole: 'member' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call(plain, 'POST', '/organisation/members', { name: 'X', email: 'x@example.test', memberRole: 'member' })).statusCode).toBe(403);
    expect((await call(founder, 'PATCH', `/organisation/members/${strangersColleague.id}`, { memberRole: 'admin' })).json()).toMatchObject({ code: 'NOT_FOUND', message: ORGANISATION_TEXTS.notFound });
    expect((await call(founder, 'DELETE', `/organisation/members/${strangersColleague.id}`)).statusCode).toBe(404);
    const [still] = await t.database.db.select({ role: users.memberRole, removedAt: users.removedAt }).from(users).where(eq(users.id, strangersColleague.id));
    expect(still).toEqual({ role: 'member', removedAt: null });
  });

  it('keeps the last admin: demoting or removing it is refused, and the founder is never removed here', async () => {
    const founder = await actor(t, 'client');
    const second = await member(founder.id, 'admin');
    expect((await call(founder, 'PATCH', `/organisation/members/${founder.id}`, { memberRole: 'member' })).statusCode).toBe(200);
    const lastDemoted = await call(second, 'PATCH', `/organisation/members/${second.id}`, { memberRole: 'finance' });
    expect(lastDemoted.statusCode).toBe(409);
    expect(lastDemoted.json().message).toBe(ORGANISATION_TEXTS.lastAdmin);
    const lastRemoved = await call(second, 'DELETE', `/organisation/members/${second.id}`);
    expect(lastRemoved.json().message).toBe(ORGANISATION_TEXTS.lastAdmin);
    await call(second, 'PATCH', `/organisation/members/${founder.id}`, { memberRole: 'admin' });
    expect((await call(second, 'DELETE', `/organisation/members/${founder.id}`)).json().message).toBe(ORGANISATION_TEXTS.founder);
    const admins = await t.database.db.select({ id: users.id }).from(users).where(and(eq(users.organisationId, founder.id), eq(users.memberRole, 'admin')));
    expect(admins).toHaveLength(2);
  });

  it('waits for the admins\' row locks, so two admins stepping down at once cannot both pass', async () => {
    const founder = await actor(t, 'client');
    const second = await member(founder.id, 'admin');
    const other = new pg.Client({ connectionString: t.databaseUrl });
    await other.connect();
    await other.query('begin');
    await other.query(`select id from users where id = $1 for update`, [second.id]);
    let settled = false;
    const stepDown = call(founder, 'PATCH', `/organisation/members/${founder.id}`, { memberRole: 'member' }).then((r) => ((settled = true), r));
    await new Promise((r) => setTimeout(r, 300));
    expect(settled).toBe(false);
    // The other transaction demotes the second admin; once it commits, the founder is the last admin.
    await other.query(`update users set member_role = 'member' where id = $1`, [second.id]);
    await other.query('commit');
    await other.end();
    const res = await stepDown;
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(ORGANISATION_TEXTS.lastAdmin);
  });

  it('ends a removed colleague\'s sessions at once', async () => {
    const founder = await actor(t, 'client');
    const colleague = await member(founder.id, 'member');
    expect((await call(colleague, 'GET', `/projects/client/${founder.id}`)).statusCode).toBe(200);
    await call(founder, 'DELETE', `/organisation/members/${colleague.id}`);
    expect((await call(colleague, 'GET', `/projects/client/${founder.id}`)).statusCode).toBe(401);
  });
});

describe("staff managing a client's members", () => {
  it('lists, invites, changes and removes under the same rules; an archived client is read-only; a missing one is 404', async () => {
    const founder = await actor(t, 'client', 'Staff Managed Ltd');
    const base = `/users/clients/${founder.id}/members`;
    const invited = await call(staff, 'POST', base, { name: 'Chidi Eze', email: 'chidi@example.test', memberRole: 'finance' });
    expect(invited.statusCode).toBe(201);
    const id = invited.json().member._id;
    expect((await call(staff, 'GET', base)).json().members.map((m: { name: string }) => m.name)).toEqual(['Staff Managed Ltd', 'Chidi Eze']);
    expect((await call(staff, 'PATCH', `${base}/${founder.id}`, { memberRole: 'member' })).json().message).toBe(ORGANISATION_TEXTS.lastAdmin);
    expect((await call(staff, 'PATCH', `${base}/${id}`, { memberRole: 'approver' })).json().member.memberRole).toBe('approver');
    const [audited] = await t.database.db.select({ actorId: auditEvents.actorId }).from(auditEvents).where(and(eq(auditEvents.entityId, id), eq(auditEvents.action, 'member.role')));
    expect(audited.actorId).toBe(staff.id);
    await t.app.inject({ method: 'POST', url: `/api/users/clients/${founder.id}/archive`, headers: staff.headers });
    const refused = await call(staff, 'DELETE', `${base}/${id}`);
    expect(refused.statusCode).toBe(409);
    await t.app.inject({ method: 'POST', url: `/api/users/clients/${founder.id}/restore`, headers: staff.headers });
    expect((await call(staff, 'DELETE', `${base}/${id}`)).statusCode).toBe(200);
    const colleague = await member(founder.id, 'member');
    expect((await call(staff, 'GET', `/users/clients/${colleague.id}/members`)).statusCode).toBe(404);
  });
});

describe("a member's view of the organisation's projects", () => {
  it('shows every project without limits, only the limited ones with them, and 404 for the rest', async () => {
    const founder = await actor(t, 'client');
    const seen = await createProjectVia(t, staff, founder.id);
    const hidden = await createProjectVia(t, staff, founder.id);
    const open = await member(founder.id, 'member');
    const limited = await member(founder.id, 'finance');
    await call(founder, 'PATCH', `/organisation/members/${limited.id}`, { projectIds: [seen._id] });
    const sent = await t.app.inject({ method: 'POST', url: '/api/messages', headers: staff.headers, payload: { projectId: hidden._id, text: 'Hidden news' } });
    expect(sent.statusCode).toBe(201);

    const names = async (who: Actor, query = '') => ((await call(who, 'GET', `/projects/client/${founder.id}${query}`)).json().projects as { _id: string }[]).map((p) => p._id).sort();
    expect(await names(open)).toEqual([seen._id, hidden._id].sort());
    expect(await names(limited)).toEqual([seen._id]);
    expect(await names(limited, '?sort=name')).toEqual([seen._id]);
    expect((await call(limited, 'GET', `/projects/client/${founder.id}`)).json().pagination.total).toBe(1);
    for (const url of [`/messages/project/${hidden._id}`, `/reports/project/${hidden._id}`, `/gantt-charts/project/${hidden._id}`]) {
      expect((await call(limited, 'GET', url)).statusCode, url).toBe(404);
      expect((await call(open, 'GET', url)).statusCode, url).toBe(200);
    }
    const unread = async (who: Actor) => (await call(who, 'GET', '/messages/unread')).json();
    expect((await unread(open)).total).toBe(1);
    expect((await unread(limited)).total).toBe(0);
    const posted = await t.app.inject({ method: 'POST', url: '/api/messages', headers: limited.headers, payload: { projectId: hidden._id, text: 'Let me in' } });
    expect(posted.statusCode).toBe(404);
  });

  it('tells a limited member live only of its projects; an unlimited one hears of both', async () => {
    const founder = await actor(t, 'client');
    const seen = await createProjectVia(t, staff, founder.id);
    const hidden = await createProjectVia(t, staff, founder.id);
    const open = await member(founder.id, 'member');
    const limited = await member(founder.id, 'member');
    await call(founder, 'PATCH', `/organisation/members/${limited.id}`, { projectIds: [seen._id] });
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const limitedStream = await openEventStream(base, limited.headers.cookie);
    const openStream = await openEventStream(base, open.headers.cookie);
    try {
      await limitedStream.waitFor((e) => e.event === 'ready');
      await openStream.waitFor((e) => e.event === 'ready');
      for (const project of [hidden, seen]) {
        await t.app.inject({ method: 'POST', url: '/api/messages', headers: staff.headers, payload: { projectId: project._id, text: 'News' } });
      }
      const about = (projectId: string) => (e: { event: string; data: unknown }) => e.event === 'message' && (e.data as { projectId: string }).projectId === projectId;
      await openStream.waitFor(about(hidden._id));
      await openStream.waitFor(about(seen._id));
      await limitedStream.waitFor(about(seen._id));
      expect(limitedStream.events.filter(about(hidden._id))).toEqual([]);
    } finally {
      await limitedStream.close();
      await openStream.close();
    }
  });

  it("archives and restores the whole organisation with its client, ending every member's sessions", async () => {
    const founder = await actor(t, 'client');
    const colleague = await member(founder.id, 'member');
    expect((await t.app.inject({ method: 'POST', url: `/api/users/clients/${founder.id}/archive`, headers: staff.headers })).statusCode).toBe(200);
    expect((await call(colleague, 'GET', `/projects/client/${founder.id}`)).statusCode).toBe(401);
    await t.app.inject({ method: 'POST', url: `/api/users/clients/${founder.id}/restore`, headers: staff.headers });
    const [row] = await t.database.db.select({ archivedAt: users.archivedAt }).from(users).where(eq(users.id, colleague.id));
    expect(row.archivedAt).toBeNull();
  });

  it('deletes the whole organisation with its client: colleagues who wrote messages, and the organisation row', async () => {
    const founder = await actor(t, 'client', 'Delete Me Ltd');
    const project = await createProjectVia(t, staff, founder.id);
    const colleague = await member(founder.id, 'member');
    expect((await t.app.inject({ method: 'POST', url: '/api/messages', headers: colleague.headers, payload: { projectId: project._id, text: 'From a colleague' } })).statusCode).toBe(201);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/users/clients/${founder.id}`, headers: staff.headers, payload: { confirmName: 'Delete Me Ltd' } });
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.select({ id: users.id }).from(users).where(eq(users.organisationId, founder.id))).toEqual([]);
    expect(await t.database.db.select({ id: clientOrganisations.id }).from(clientOrganisations).where(eq(clientOrganisations.id, founder.id))).toEqual([]);
  });

  it('lists only organisations as clients, never a colleague', async () => {
    const founder = await actor(t, 'client', 'Listed Organisation');
    await member(founder.id, 'member');
    const res = await t.app.inject({ method: 'GET', url: '/api/users/clients?pageSize=100&status=all', headers: staff.headers });
    const ids = (res.json().clients as { _id: string }[]).map((c) => c._id);
    const colleagues = await t.database.db.select({ id: users.id }).from(users).where(eq(users.organisationId, founder.id));
    expect(ids).toContain(founder.id);
    for (const c of colleagues.filter((x) => x.id !== founder.id)) expect(ids).not.toContain(c.id);
  });
});
