import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SETUP_CLOSED, SETUP_LINK_INVALID, SETUP_LINK_LIFETIME_MS } from '../../../common/schemas/setup.ts';
import { setupLinks } from '../../db/schema/auth.ts';
import { sessions, users } from '../../db/schema/users.ts';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { base32Decode, totp } from '../auth/totp.ts';
import { hashToken } from '../auth/sessions.service.ts';
import { announceSetupLink, issueSetupLink } from './setup.service.ts';

// First-run set-up link (decision 160): printed at start while no admin exists, one hour, once, admin network only.

const ORIGIN = 'http://localhost:3000';
const INSIDE = '10.20.30.40';
const OUTSIDE = '203.0.113.9';
const PASSWORD = 'granite harbour lantern twelve';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8', ADMIN_MFA_REQUIRED: 'true' });
});
afterAll(async () => t.close());
// Each test starts from a fresh install: no admin, no link.
afterEach(async () => {
  await t.database.db.delete(users).where(eq(users.role, 'admin'));
  await t.database.db.delete(setupLinks);
});

const tokenOf = (url: string) => new URL(url).hash.replace('#token=', '');
const post = (url: string, payload: unknown, remoteAddress = INSIDE) =>
  t.app.inject({ method: 'POST', url, remoteAddress, headers: { origin: ORIGIN }, payload: payload as object });
const createAdmin = (token: string, email = 'first.admin@example.test', remoteAddress = INSIDE) =>
  post('/api/setup/admin', { token, name: 'First Admin', email, password: PASSWORD }, remoteAddress);
const adminCount = async () => (await t.database.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'))).length;

describe('first-run set-up link', () => {
  it('prints one line with a link to the set-up page while no admin exists, and stores only its hash', async () => {
    const lines: string[] = [];
    await announceSetupLink(t.app, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    const url = /https?:\/\/\S+/.exec(lines[0])![0];
    expect(url).toMatch(/^http:\/\/localhost:\d+\/secured\/v1\/setup#token=[A-Za-z0-9_-]{43}$/);
    expect(lines[0]).toContain('10.0.0.0/8');
    const stored = await t.database.db.select().from(setupLinks);
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).toBe(hashToken(tokenOf(url)));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(url));
    expect(stored[0].expiresAt.getTime() - t.clock.now().getTime()).toBe(SETUP_LINK_LIFETIME_MS);
  });

  it('writes a new link at each start and none once an admin exists', async () => {
    const a = await issueSetupLink(t.app);
    const b = await issueSetupLink(t.app);
    expect(a!.url).not.toBe(b!.url);
    // Both work: two processes started together do not void each other's link.
    for (const link of [a!, b!]) expect((await post('/api/setup/inspect', { token: tokenOf(link.url) })).statusCode).toBe(200);
    expect((await createAdmin(tokenOf(a!.url))).statusCode).toBe(200);
    const lines: string[] = [];
    await announceSetupLink(t.app, (line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(await issueSetupLink(t.app)).toBeNull();
  });

  it('works for one hour by the clock, then is refused with what to do', async () => {
    const link = await issueSetupLink(t.app);
    const token = tokenOf(link!.url);
    t.clock.advance(SETUP_LINK_LIFETIME_MS - 1000);
    const inspect = await post('/api/setup/inspect', { token });
    expect(inspect.statusCode).toBe(200);
    expect(inspect.json()).toEqual({ success: true, expiresAt: link!.expiresAt.toISOString(), mfaRequired: true });
    t.clock.advance(1000);
    const late = await post('/api/setup/inspect', { token });
    expect(late.statusCode).toBe(404);
    expect(late.json()).toEqual({ success: false, code: 'NOT_FOUND', message: SETUP_LINK_INVALID });
    expect(late.json().message).toMatch(/Restart the server|admin:create/);
    expect((await createAdmin(token)).statusCode).toBe(404);
    expect(await adminCount()).toBe(0);
  });

  it('refuses callers outside ADMIN_ALLOWED_CIDRS and tells them nothing about the set-up', async () => {
    const token = tokenOf((await issueSetupLink(t.app))!.url);
    const inspect = await post('/api/setup/inspect', { token }, OUTSIDE);
    expect(inspect.statusCode).toBe(403);
    const create = await createAdmin(token, 'outsider@example.test', OUTSIDE);
    expect(create.statusCode).toBe(403);
    expect(await adminCount()).toBe(0);
    const status = await t.app.inject({ method: 'GET', url: '/api/setup/status', remoteAddress: OUTSIDE });
    expect(status.json()).toEqual({ success: true, open: false, addressRestricted: true });
    const inside = await t.app.inject({ method: 'GET', url: '/api/setup/status', remoteAddress: INSIDE });
    expect(inside.json()).toEqual({ success: true, open: true, addressRestricted: true });
    // The link was not used up by the refused calls.
    expect((await post('/api/setup/inspect', { token })).statusCode).toBe(200);
  });

  it('applies the account password rules and stores nothing on bad input', async () => {
    const token = tokenOf((await issueSetupLink(t.app))!.url);
    const short = await post('/api/setup/admin', { token, name: 'First Admin', email: 'first@example.test', password: 'short' });
    expect(short.statusCode).toBe(400);
    const common = await post('/api/setup/admin', { token, name: 'First Admin', email: 'first@example.test', password: 'password1234' });
    expect(common.statusCode).toBe(400);
    const badEmail = await post('/api/setup/admin', { token, name: 'First Admin', email: 'not-an-email', password: PASSWORD });
    expect(badEmail.statusCode).toBe(400);
    const noName = await post('/api/setup/admin', { token, name: '  ', email: 'first@example.test', password: PASSWORD });
    expect(noName.statusCode).toBe(400);
    expect(await adminCount()).toBe(0);
    expect((await post('/api/setup/inspect', { token })).statusCode).toBe(200);
  });

  it('creates the first admin, asks for the authenticator app next, and closes for good', async () => {
    const token = tokenOf((await issueSetupLink(t.app))!.url);
    const res = await createAdmin(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, mfa: 'enrol', user: { name: 'First Admin', role: 'admin' } });
    // The session waits for the second factor: enrolment works with it, nothing else does.
    const cookie = { cookie: `sid=${body.token}`, origin: ORIGIN };
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: INSIDE, headers: cookie })).statusCode).toBe(401);
    const start = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/enrolment', remoteAddress: INSIDE, headers: cookie, payload: {} });
    expect(start.statusCode).toBe(200);
    const code = totp(base32Decode(start.json().secret), t.clock.now().getTime());
    const done = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/enrolment/confirm', remoteAddress: INSIDE, headers: cookie, payload: { code } });
    expect(done.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: INSIDE, headers: { cookie: `sid=${done.json().token}` } });
    expect(me.json().user).toMatchObject({ name: 'First Admin', role: 'admin' });

    // Gone: the used link, any other link, and the status all say so.
    const again = await post('/api/setup/inspect', { token });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(SETUP_CLOSED);
    expect((await createAdmin(token, 'second@example.test')).json().message).toBe(SETUP_CLOSED);
    const status = await t.app.inject({ method: 'GET', url: '/api/setup/status', remoteAddress: INSIDE });
    expect(status.json()).toEqual({ success: true, open: false, addressRestricted: true });
    expect(await adminCount()).toBe(1);
    const [row] = await t.database.db.select({ email: users.email, staffRole: users.staffRole }).from(users).where(eq(users.role, 'admin'));
    expect(row).toEqual({ email: 'first.admin@example.test', staffRole: 'owner' });
  });

  it('creates exactly one admin when many requests race with two processes\' links', async () => {
    const tokens = [tokenOf((await issueSetupLink(t.app))!.url), tokenOf((await issueSetupLink(t.app))!.url)];
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => createAdmin(tokens[i % 2], `racer${i}@example.test`)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    expect(await adminCount()).toBe(1);
    const used = await t.database.db.select({ usedAt: setupLinks.usedAt }).from(setupLinks);
    expect(used.every((l) => l.usedAt !== null)).toBe(true);
    // Only the winner got a session.
    const winner = results.find((r) => r.statusCode === 200)!.json();
    const adminSessions = await t.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, winner.user._id));
    expect(adminSessions).toHaveLength(1);
  });
});
