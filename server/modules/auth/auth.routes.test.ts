import { and, eq } from 'drizzle-orm';
import { PERMISSIONS } from '../../../common/permissions.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAttempts } from '../../db/schema/auth.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { ADDRESS_FAILURE_LIMIT } from './login-attempts.service.ts';

const ORIGIN = 'http://localhost:3000';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

// Each test uses its own address, so the per-address limit of one test never touches another.
let addressCounter = 1;
const nextAddress = () => `198.51.100.${addressCounter++}`;

function login(username: string, password: string, remoteAddress = '198.51.100.250') {
  return t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, remoteAddress, payload: { username, password } });
}

function setCookies(res: { headers: Record<string, unknown> }): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw ? [String(raw)] : [];
}

async function attemptsOf(account: string) {
  return t.database.db.select().from(loginAttempts).where(eq(loginAttempts.account, account.toLowerCase())).orderBy(loginAttempts.at);
}

describe('client sign-in', () => {
  it('answers success, token and the user without secrets, and sets the session and hint cookies', async () => {
    const client = await createUser(t, { role: 'client', name: 'Ada Okafor' });
    const res = await login(client.username!, TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ success: true, token: expect.any(String), user: { _id: client.id, name: 'Ada Okafor', role: 'client' } });
    expect(res.body).not.toMatch(/password|hash|mfa|email/i);
    const cookies = setCookies(res);
    const sid = cookies.find((c) => c.startsWith('sid='))!;
    expect(sid).toContain(`sid=${body.token}`);
    expect(sid).toMatch(/; HttpOnly/);
    expect(sid).toMatch(/; SameSite=Lax/);
    expect(sid).toMatch(/; Path=\//);
    expect(sid).not.toMatch(/; Secure/); // not in test/development: Secure only in production
    expect(sid).toMatch(/; Expires=/);
    const hint = cookies.find((c) => c.startsWith('signed_in='))!;
    expect(hint).toMatch(/^signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/);
    expect(res.headers['cache-control']).toBe('no-store');

    const me = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.statusCode).toBe(200);
    // Decision 279: a client is its organisation's admin (a founder's organisation has its own id).
    expect(me.json()).toEqual({
      success: true,
      user: { _id: client.id, name: 'Ada Okafor', role: 'client', staffRole: null, permissions: [], organisationId: client.id, memberRole: 'admin' },
    });
    expect(me.headers['cache-control']).toBe('no-store');
    const viaCookie = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `sid=${body.token}` } });
    expect(viaCookie.statusCode).toBe(200);
  });

  it("gives a staff member's role and the permissions it grants in GET /api/auth/me (decision 273)", async () => {
    const me = async (staffRole: 'editor' | 'support' | 'owner') => {
      const { cookie } = await signIn(t, await createUser(t, { role: 'admin', name: `Staff ${staffRole}`, staffRole }), 'admin');
      return (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json().user;
    };
    expect(await me('editor')).toMatchObject({ role: 'admin', staffRole: 'editor', permissions: ['content.write', 'blog.write', 'newsletter.write'] });
    expect(await me('support')).toMatchObject({ role: 'admin', staffRole: 'support', permissions: ['support.answer', 'submissions.read'] });
    expect((await me('owner')).permissions).toEqual([...PERMISSIONS]);
  });

  it('accepts the username in any letter case', async () => {
    const client = await createUser(t, { role: 'client' });
    expect((await login(client.username!.toUpperCase(), TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('gives identical answers for an unknown account, a wrong password and an account without a password', async () => {
    const client = await createUser(t, { role: 'client' });
    const [unknown, wrong] = [await login('nobody-here', 'whatever password'), await login(client.username!, 'wrong password!')];
    const noPassword = await createUser(t, { role: 'client' });
    await t.database.db.execute(`UPDATE users SET password_hash = NULL WHERE id = '${noPassword.id}'`);
    const notSet = await login(noPassword.username!, 'some password here');
    for (const res of [unknown, wrong, notSet]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Invalid username or password.' });
      expect(setCookies(res).some((c) => c.startsWith('sid='))).toBe(false);
    }
    expect((await attemptsOf('nobody-here')).map((a) => a.result)).toEqual(['unknown-account']);
    expect((await attemptsOf(client.username!)).map((a) => a.result)).toEqual(['wrong-password']);
    expect((await attemptsOf(noPassword.username!)).map((a) => a.result)).toEqual(['password-not-set']);
  });

  it('does not let an admin in through the client login, nor a client through the admin login', async () => {
    const admin = await createUser(t, { role: 'admin', username: 'admin-with-username' });
    expect((await login('admin-with-username', TEST_PASSWORD)).statusCode).toBe(401);
    const client = await createUser(t, { role: 'client' });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: client.email, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Unable to verify this session.');
    expect(admin.id).toBeTruthy();
  });

  it("says a mistyped admin e-mail or password is wrong, in the same words for both; 'Unable to verify this session.' only for a right password that cannot sign in here", async () => {
    const admin = await createUser(t, { role: 'admin' });
    const wrongPassword = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: 'not the password at all' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: 'nobody-here@example.test', password: 'not the password at all' } });
    for (const res of [wrongPassword, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, message: 'The e-mail address or password is incorrect.' });
    }
    const client = await createUser(t, { role: 'client' });
    const clientWrong = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: client.email, password: 'not the password at all' } });
    expect(clientWrong.json().message).toBe('The e-mail address or password is incorrect.');
  });

  it('validates the login body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: ORIGIN }, payload: { username: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  });

  it('refuses public sign-up with 403 and a clear message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/signup', headers: { origin: ORIGIN }, payload: { name: 'x', password: 'y' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/staff open an account/);
  });
});

describe('sessions', () => {
  it('ends a client session after 14 idle days, and after 30 days however active', async () => {
    const client = await createUser(t, { role: 'client' });
    const { token } = await signIn(t, client, 'client');
    const me = () => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    t.clock.advance(14 * DAY - MINUTE);
    expect((await me()).statusCode).toBe(200);
    // Active every 13 days: the idle limit never hits, the absolute one does at 30 days.
    t.clock.advance(13 * DAY);
    expect((await me()).statusCode).toBe(200);
    t.clock.advance(3 * DAY + 2 * MINUTE);
    expect((await me()).statusCode).toBe(401);

    const idle = await signIn(t, client, 'client');
    t.clock.advance(14 * DAY + MINUTE);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${idle.token}` } })).statusCode).toBe(401);
  });

  it('ends an admin session after 2 idle hours, and after 12 hours however active', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const idle = await signIn(t, admin, 'admin');
    const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    t.clock.advance(2 * 60 * MINUTE + MINUTE);
    expect((await me(idle.token)).statusCode).toBe(401);

    const active = await signIn(t, admin, 'admin');
    for (let hour = 0; hour < 11; hour++) {
      t.clock.advance(60 * MINUTE);
      expect((await me(active.token)).statusCode).toBe(200);
    }
    t.clock.advance(60 * MINUTE);
    expect((await me(active.token)).statusCode).toBe(401);
  });

  it('revokes the session on logout: the token no longer works and the cookies are cleared', async () => {
    const client = await createUser(t, { role: 'client' });
    const { token } = (await login(client.username!, TEST_PASSWORD)).json();
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `sid=${token}`, origin: ORIGIN } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    const cookies = setCookies(out);
    expect(cookies.find((c) => c.startsWith('sid='))).toMatch(/^sid=;.*Expires=Thu, 01 Jan 1970/);
    expect(cookies.find((c) => c.startsWith('signed_in='))).toMatch(/^signed_in=;.*Expires=Thu, 01 Jan 1970/);
    // Reusing the token after logout, by cookie or by Bearer, is refused.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: `sid=${token}` } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
  });

  it('answers logout without a session with success, so the browser can always call it', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { origin: ORIGIN } });
    expect(res.statusCode).toBe(200);
  });
});

describe('CSRF', () => {
  it('refuses a cookie-carrying write without Origin or from another site, and accepts our own origin', async () => {
    const client = await createUser(t, { role: 'client' });
    const { cookie } = await signIn(t, client, 'client');
    const logout = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, ...headers } });
    for (const headers of [{} as Record<string, string>, { origin: 'https://evil.example' }, { origin: 'null' }, { origin: 'http://localhost:3000.evil.example' }]) {
      const res = await logout(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    // Still signed in: the refused requests changed nothing.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).statusCode).toBe(200);
    expect((await logout({ origin: ORIGIN })).statusCode).toBe(200);
  });

  it('compares Origin with the configured origins, never with the Host the request names (decision 113, issue 16)', async () => {
    const client = await createUser(t, { role: 'client' });
    const { cookie } = await signIn(t, client, 'client');
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie, host: 'portal.example', origin: 'https://portal.example' } });
    expect(res.statusCode).toBe(403);
  });

  it('exempts Bearer-only requests and leaves GET alone', async () => {
    const client = await createUser(t, { role: 'client' });
    const { token, cookie } = await signIn(t, client, 'client');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie, origin: 'https://evil.example' } })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a sign-in posted from another site (login CSRF)', async () => {
    const client = await createUser(t, { role: 'client' });
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { origin: 'https://evil.example' }, payload: { username: client.username, password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(403);
  });
});

describe('rate limits and audit', () => {
  it('answers 429 after 5 failures in 15 minutes, with growing waits, and never for good', async () => {
    const client = await createUser(t, { role: 'client' });
    const ip = nextAddress();
    for (let i = 0; i < 5; i++) expect((await login(client.username!, 'wrong password!', ip)).statusCode).toBe(401);
    // Even the right password is not tried while the account waits.
    const limited = await login(client.username!, TEST_PASSWORD, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, code: 'RATE_LIMITED', message: 'Too many sign-in attempts. Please wait 1 minute and try again.' });
    expect(limited.headers['retry-after']).toBe('60');
    // From another address too: the limit is on the account.
    expect((await login(client.username!, TEST_PASSWORD, nextAddress())).statusCode).toBe(429);

    t.clock.advance(MINUTE);
    expect((await login(client.username!, 'wrong password!', ip)).statusCode).toBe(401); // 6th failure: 2 minutes
    t.clock.advance(MINUTE);
    const second = await login(client.username!, TEST_PASSWORD, ip);
    expect(second.statusCode).toBe(429);
    expect(second.headers['retry-after']).toBe('60');
    t.clock.advance(MINUTE);
    expect((await login(client.username!, TEST_PASSWORD, ip)).statusCode).toBe(200);

    const results = (await attemptsOf(client.username!)).map((a) => a.result);
    expect(results).toEqual([
      ...Array(5).fill('wrong-password'),
      'rate-limited',
      'rate-limited',
      'wrong-password',
      'rate-limited',
      'success',
    ]);
    const rows = await attemptsOf(client.username!);
    expect(rows[0]).toMatchObject({ ip, portal: 'client', userId: client.id });
    expect(rows[0].at).toBeInstanceOf(Date);
  });

  it('forgets failures older than 15 minutes', async () => {
    const client = await createUser(t, { role: 'client' });
    const ip = nextAddress();
    for (let i = 0; i < 4; i++) await login(client.username!, 'wrong password!', ip);
    t.clock.advance(15 * MINUTE + 1000);
    for (let i = 0; i < 4; i++) expect((await login(client.username!, 'wrong password!', ip)).statusCode).toBe(401);
    expect((await login(client.username!, TEST_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('limits unknown accounts exactly like real ones, so the limit reveals nothing', async () => {
    const ip = nextAddress();
    for (let i = 0; i < 5; i++) expect((await login('ghost-account', 'wrong password!', ip)).statusCode).toBe(401);
    const res = await login('ghost-account', 'wrong password!', ip);
    expect(res.statusCode).toBe(429);
  });

  it('limits one address trying many accounts', async () => {
    const ip = nextAddress();
    for (let i = 0; i < ADDRESS_FAILURE_LIMIT; i++) expect((await login(`guess-${i}`, 'wrong password!', ip)).statusCode).toBe(401);
    const client = await createUser(t, { role: 'client' });
    expect((await login(client.username!, TEST_PASSWORD, ip)).statusCode).toBe(429);
    // Someone else, elsewhere, is not affected.
    expect((await login(client.username!, TEST_PASSWORD, nextAddress())).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(loginAttempts).where(and(eq(loginAttempts.ip, ip), eq(loginAttempts.result, 'rate-limited')));
    expect(row.account).toBe(client.username!.toLowerCase());
    t.clock.advance(15 * MINUTE + 1000);
    expect((await login(client.username!, TEST_PASSWORD, ip)).statusCode).toBe(200);
  });

  it('lets admins read the login audit page by page, newest first, and nobody else', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const { cookie } = await signIn(t, admin, 'admin');
    t.clock.advance(1000); // the newest row, whatever the tests before left at the same instant
    await login('audit-probe', 'wrong password!', nextAddress());
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/audit?page=1&pageSize=2', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.attempts).toHaveLength(2);
    expect(body.attempts[0]).toMatchObject({ account: 'audit-probe', result: 'unknown-account', portal: 'client' });
    expect(body.pagination).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
    expect(body.pagination.total).toBeGreaterThan(2);
    const page2 = (await t.app.inject({ method: 'GET', url: '/api/auth/audit?page=2&pageSize=2', headers: { cookie } })).json();
    expect(page2.attempts[0]._id).not.toBe(body.attempts[0]._id);
    const filtered = (await t.app.inject({ method: 'GET', url: '/api/auth/audit?result=unknown-account', headers: { cookie } })).json();
    expect(filtered.attempts.every((a: { result: string }) => a.result === 'unknown-account')).toBe(true);

    const client = await createUser(t, { role: 'client' });
    const clientSession = await signIn(t, client, 'client');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/audit', headers: { cookie: clientSession.cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/audit' })).statusCode).toBe(401);
  });
});

describe('changing the password', () => {
  it('checks the current password and the rules, then ends the other sessions only', async () => {
    const client = await createUser(t, { role: 'client' });
    const current = await signIn(t, client, 'client');
    const other = await signIn(t, client, 'client');
    const change = (body: object) =>
      t.app.inject({ method: 'POST', url: '/api/auth/password/change', headers: { cookie: current.cookie, origin: ORIGIN }, payload: body });

    const wrong = await change({ currentPassword: 'not my password', newPassword: 'a brand new passphrase' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The current password is not correct.');
    expect((await change({ currentPassword: TEST_PASSWORD, newPassword: 'short' })).json().message).toBe('body.newPassword: The password must be at least 12 characters long.');
    const common = await change({ currentPassword: TEST_PASSWORD, newPassword: 'Password1234' });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toMatch(/too common/);
    const same = await change({ currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD });
    expect(same.statusCode).toBe(400);

    const ok = await change({ currentPassword: TEST_PASSWORD, newPassword: 'a brand new passphrase' });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: current.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: other.cookie } })).statusCode).toBe(401);
    expect((await login(client.username!, TEST_PASSWORD, nextAddress())).statusCode).toBe(401);
    expect((await login(client.username!, 'a brand new passphrase', nextAddress())).statusCode).toBe(200);
  });
});
