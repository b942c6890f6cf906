import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAttempts } from '../../db/schema/auth.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { clientAddressOf, cidrList, inList } from './admin-network.ts';
import { base32Decode, totp } from './totp.ts';
import type { FastifyRequest } from 'fastify';
import { loadConfig } from '../../config.ts';

const ORIGIN = 'http://localhost:3000';
const INSIDE = '10.20.30.40';
const OUTSIDE = '203.0.113.9';
const PROXY = '192.168.1.1';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_ALLOWED_CIDRS: '10.0.0.0/8, fd00::/8', TRUSTED_PROXY_CIDRS: `${PROXY}`, ADMIN_MFA_REQUIRED: 'true' });
});
afterAll(async () => t.close());

function adminLogin(email: string, password: string, remoteAddress = INSIDE, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', remoteAddress, headers: { origin: ORIGIN, ...headers }, payload: { email, password } });
}

describe('CIDR matching', () => {
  it('matches IPv4 and IPv6 ranges and single addresses, including IPv4-mapped IPv6 peers', () => {
    const list = cidrList(['10.0.0.0/8', '127.0.0.1', '2001:db8::/32', 'fd00::/8']);
    expect(inList(list, '10.255.0.1')).toBe(true);
    expect(inList(list, '11.0.0.1')).toBe(false);
    expect(inList(list, '127.0.0.1')).toBe(true);
    expect(inList(list, '127.0.0.2')).toBe(false);
    expect(inList(list, '::ffff:10.1.2.3')).toBe(true);
    expect(inList(list, '2001:db8:1::5')).toBe(true);
    expect(inList(list, '2001:db9::5')).toBe(false);
    expect(inList(list, 'fd12:3456::1')).toBe(true);
    expect(inList(list, 'not an address')).toBe(false);
    expect(() => cidrList(['10.0.0.0/33'])).toThrow();
  });

  it('reads X-Forwarded-For only from a trusted proxy, from the right, skipping our own proxies', () => {
    const config = loadConfig({ TRUSTED_PROXY_CIDRS: '192.168.1.0/24' });
    const req = (peer: string, xff?: string) => ({ socket: { remoteAddress: peer }, ip: peer, headers: xff ? { 'x-forwarded-for': xff } : {} }) as unknown as FastifyRequest;
    expect(clientAddressOf(config, req(OUTSIDE, '10.0.0.1'))).toBe(OUTSIDE);
    expect(clientAddressOf(config, req('192.168.1.5', '10.0.0.1'))).toBe('10.0.0.1');
    expect(clientAddressOf(config, req('192.168.1.5', '10.0.0.1, 203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddressOf(config, req('192.168.1.5', '203.0.113.7, 192.168.1.9'))).toBe('203.0.113.7');
    expect(clientAddressOf(config, req('192.168.1.5'))).toBe('192.168.1.5');
    expect(clientAddressOf(config, req('::ffff:192.168.1.5', 'garbage'))).toBe('garbage');
  });
});

describe('admin network restriction', () => {
  it('refuses the admin login from outside the allowed ranges and writes it to the audit', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const res = await adminLogin(admin.email, TEST_PASSWORD, OUTSIDE);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Access to the admin area is restricted to pre-authorized IP addresses.');
    const rows = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.account, admin.email.toLowerCase()));
    expect(rows.map((r) => [r.result, r.ip, r.portal])).toEqual([['blocked-address', OUTSIDE, 'admin']]);
    expect((await adminLogin(admin.email, TEST_PASSWORD, INSIDE)).statusCode).toBe(200);
    expect((await adminLogin(admin.email, TEST_PASSWORD, 'fd00::1234')).statusCode).toBe(200);
    expect((await adminLogin(admin.email, TEST_PASSWORD, '::ffff:10.9.9.9')).statusCode).toBe(200);
  });

  it('ignores a spoofed X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const admin = await createUser(t, { role: 'admin' });
    expect((await adminLogin(admin.email, TEST_PASSWORD, OUTSIDE, { 'x-forwarded-for': INSIDE })).statusCode).toBe(403);
    const { cookie } = await signIn(t, admin, 'admin');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/audit', remoteAddress: OUTSIDE, headers: { cookie, 'x-forwarded-for': INSIDE } });
    expect(res.statusCode).toBe(403);
  });

  it('judges a trusted proxy by the address it forwards, and cannot be fooled by a hop prepended by the client', async () => {
    const admin = await createUser(t, { role: 'admin' });
    expect((await adminLogin(admin.email, TEST_PASSWORD, PROXY, { 'x-forwarded-for': INSIDE })).statusCode).toBe(200);
    expect((await adminLogin(admin.email, TEST_PASSWORD, PROXY, { 'x-forwarded-for': OUTSIDE })).statusCode).toBe(403);
    // The client wrote 10.x itself; the proxy appended the real address.
    expect((await adminLogin(admin.email, TEST_PASSWORD, PROXY, { 'x-forwarded-for': `${INSIDE}, ${OUTSIDE}` })).statusCode).toBe(403);
  });

  it('refuses an admin session on any route from outside the ranges, and admin routes to clients', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const { cookie } = await signIn(t, admin, 'admin');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/audit', remoteAddress: INSIDE, headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/audit', remoteAddress: OUTSIDE, headers: { cookie } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: OUTSIDE, headers: { cookie } })).statusCode).toBe(403);
    const client = await createUser(t, { role: 'client' });
    const clientSession = await signIn(t, client, 'client');
    // Clients are not bound to the admin ranges.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: OUTSIDE, headers: { cookie: clientSession.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/audit', remoteAddress: INSIDE, headers: { cookie: clientSession.cookie } })).statusCode).toBe(403);
  });
});

describe('second factor', () => {
  const cookieOf = (token: string) => ({ cookie: `sid=${token}`, origin: ORIGIN });
  const post = (url: string, token: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, remoteAddress: INSIDE, headers: cookieOf(token), ...(payload ? { payload } : {}) });

  it('makes an admin without a second factor enrol one before anything else, then asks for it at each sign-in', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const first = await adminLogin(admin.email, TEST_PASSWORD);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ success: true, mfa: 'enrol', user: { _id: admin.id, role: 'admin' } });
    const cookies = ([] as string[]).concat(first.headers['set-cookie'] as string[]);
    expect(cookies.some((c) => c.startsWith('signed_in=1'))).toBe(false);
    const pending = first.json().token;
    // The half-signed-in session reaches nothing else.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: INSIDE, headers: cookieOf(pending) })).statusCode).toBe(401);
    const audit = await t.app.inject({ method: 'GET', url: '/api/auth/audit', remoteAddress: INSIDE, headers: cookieOf(pending) });
    expect(audit.statusCode).toBe(401);
    expect(audit.json().message).toMatch(/authenticator/);

    const start = await post('/api/auth/mfa/enrolment', pending);
    expect(start.statusCode).toBe(200);
    const { secret, otpauthUrl, qrCode } = start.json();
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(qrCode.split(',')[1], 'base64').toString()).toContain('<svg');

    const wrong = await post('/api/auth/mfa/enrolment/confirm', pending, { code: '000000' });
    expect(wrong.statusCode).toBe(401);
    const code = totp(base32Decode(secret), t.clock.now().getTime());
    const done = await post('/api/auth/mfa/enrolment/confirm', pending, { code });
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body.recoveryCodes).toHaveLength(10);
    expect(body.recoveryCodes[0]).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(body.token).not.toBe(pending);
    // The pending token was swapped for a new one.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: INSIDE, headers: cookieOf(pending) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: INSIDE, headers: cookieOf(body.token) })).statusCode).toBe(200);
    // A second enrolment cannot replace the active factor.
    expect((await post('/api/auth/mfa/enrolment', body.token)).statusCode).toBe(409);

    // Next sign-in: the code is asked for; the code just used cannot be replayed.
    const again = (await adminLogin(admin.email, TEST_PASSWORD)).json();
    expect(again.mfa).toBe('verify');
    const replay = await post('/api/auth/mfa/verify', again.token, { code });
    expect(replay.statusCode).toBe(401);
    t.clock.advance(30_000);
    const fresh = totp(base32Decode(secret), t.clock.now().getTime());
    const verified = await post('/api/auth/mfa/verify', again.token, { code: fresh });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ success: true, usedRecoveryCode: false, user: { _id: admin.id } });
    expect(([] as string[]).concat(verified.headers['set-cookie'] as string[]).some((c) => c.startsWith('signed_in=1'))).toBe(true);

    // A recovery code works once.
    const third = (await adminLogin(admin.email, TEST_PASSWORD)).json();
    const recovery = body.recoveryCodes[3].toUpperCase().replace('-', ' ');
    const viaRecovery = await post('/api/auth/mfa/verify', third.token, { code: recovery });
    expect(viaRecovery.statusCode).toBe(200);
    expect(viaRecovery.json().usedRecoveryCode).toBe(true);
    const fourth = (await adminLogin(admin.email, TEST_PASSWORD)).json();
    expect((await post('/api/auth/mfa/verify', fourth.token, { code: body.recoveryCodes[3] })).statusCode).toBe(401);
    const status = await t.app.inject({ method: 'GET', url: '/api/auth/mfa', remoteAddress: INSIDE, headers: cookieOf(viaRecovery.json().token) });
    expect(status.json()).toEqual({ success: true, enabled: true, recoveryCodesLeft: 9, required: true });

    const results = (await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.userId, admin.id)).orderBy(loginAttempts.at)).map((r) => r.result);
    expect(results).toEqual(['mfa-pending', 'wrong-second-factor', 'success', 'mfa-pending', 'wrong-second-factor', 'success', 'mfa-pending', 'success', 'mfa-pending', 'wrong-second-factor']);
  });

  it('limits wrong second-factor codes like wrong passwords', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const pending = (await adminLogin(admin.email, TEST_PASSWORD)).json().token;
    const { secret } = (await post('/api/auth/mfa/enrolment', pending)).json();
    await post('/api/auth/mfa/enrolment/confirm', pending, { code: totp(base32Decode(secret), t.clock.now().getTime()) });
    t.clock.advance(30_000);
    const next = (await adminLogin(admin.email, TEST_PASSWORD)).json().token;
    for (let i = 0; i < 5; i++) expect((await post('/api/auth/mfa/verify', next, { code: '123456' })).statusCode).toBe(401);
    const limited = await post('/api/auth/mfa/verify', next, { code: totp(base32Decode(secret), t.clock.now().getTime()) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('lets a half-signed-in admin log out', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const pending = (await adminLogin(admin.email, TEST_PASSWORD)).json().token;
    const out = await post('/api/auth/logout', pending);
    expect(out.statusCode).toBe(200);
    expect((await post('/api/auth/mfa/enrolment', pending)).statusCode).toBe(401);
  });

  it('gives a half-signed-in session only 10 minutes', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const pending = (await adminLogin(admin.email, TEST_PASSWORD)).json().token;
    t.clock.advance(10 * 60_000 + 1);
    expect((await post('/api/auth/mfa/enrolment', pending)).statusCode).toBe(401);
  });
});
