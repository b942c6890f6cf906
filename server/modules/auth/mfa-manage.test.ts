import { and, eq, gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_ENROLMENT_PASSWORD_WRONG, MFA_NOT_ON, MFA_REQUIRED_CANNOT_TURN_OFF, MFA_TURNED_OFF } from '../../../common/schemas/auth.ts';
import { loginAttempts, mfaRecoveryCodes } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { createTestApp, createUser, signIn, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { WRONG_SECOND_FACTOR } from './mfa.service.ts';
import { base32Decode, totp } from './totp.ts';

// Managing an active second factor from the Account dialog: new recovery codes, a new phone, turning
// it off. Each asks for the password and a code, audited and limited like sign-ins (decision 081).

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_MFA_REQUIRED: 'false' });
});
afterAll(async () => t.close());

type Target = TestApp;
const headersOf = (token: string) => ({ cookie: `sid=${token}`, origin: ORIGIN });
const post = (url: string, token: string, payload?: object, on: Target = t) =>
  on.app.inject({ method: 'POST', url, headers: headersOf(token), ...(payload ? { payload } : {}) });
const status = async (token: string, on: Target = t) => (await on.app.inject({ method: 'GET', url: '/api/auth/mfa', headers: headersOf(token) })).json();
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: headersOf(token) });
/** The code of the next 30-second step: each step is accepted once, so every use moves the clock on. */
function nextCode(secret: string, on: Target = t) {
  on.clock.advance(30_000);
  return totp(base32Decode(secret), on.clock.now().getTime());
}

async function adminLogin(email: string, on: Target = t) {
  const res = await on.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email, password: TEST_PASSWORD } });
  expect(res.statusCode).toBe(200);
  return res.json() as { token: string; mfa?: string };
}

/** Signs in with password and authenticator code; answers the full session's token. */
async function signInWithCode(email: string, code: string, on: Target = t) {
  const pending = await adminLogin(email, on);
  expect(pending.mfa).toBe('verify');
  return post('/api/auth/mfa/verify', pending.token, { code }, on);
}

/** A signed-in admin with the second factor on (enrolled through the API, as the dialog does). */
async function enrolledAdmin(on: Target = t) {
  const admin = await createUser(on, { role: 'admin' });
  const first = await adminLogin(admin.email, on);
  const start = first.mfa === 'enrol' ? await post('/api/auth/mfa/enrolment', first.token, undefined, on) : await post('/api/auth/mfa/enrolment', first.token, { password: TEST_PASSWORD }, on);
  const { secret } = start.json();
  const done = await post('/api/auth/mfa/enrolment/confirm', first.token, { code: totp(base32Decode(secret), on.clock.now().getTime()) }, on);
  expect(done.statusCode).toBe(200);
  return { admin, secret: secret as string, token: done.json().token as string, recoveryCodes: done.json().recoveryCodes as string[] };
}

const auditOf = async (userId: string, since: Date) =>
  (await t.database.db.select().from(loginAttempts).where(and(eq(loginAttempts.userId, userId), gt(loginAttempts.at, since))).orderBy(loginAttempts.at)).map((r) => r.result);

describe('new recovery codes', () => {
  it('answers 10 new codes for the password and a current authenticator code; the old ones stop working', async () => {
    const { admin, secret, token, recoveryCodes } = await enrolledAdmin();
    const res = await post('/api/auth/mfa/recovery-codes', token, { password: TEST_PASSWORD, code: nextCode(secret) });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    expect((await status(token)).recoveryCodesLeft).toBe(10);
    expect((await signInWithCode(admin.email, recoveryCodes[0])).statusCode).toBe(401);
    expect((await signInWithCode(admin.email, fresh[0])).statusCode).toBe(200);
  });

  it('refuses a wrong password, a wrong code and a recovery code in place of the app, and audits each', async () => {
    const { admin, secret, token, recoveryCodes } = await enrolledAdmin();
    const since = t.clock.now();
    t.clock.advance(1000);
    const wrongPassword = await post('/api/auth/mfa/recovery-codes', token, { password: 'not the password', code: nextCode(secret) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: MFA_ENROLMENT_PASSWORD_WRONG, details: [{ field: 'body.password' }] });
    const wrongCode = await post('/api/auth/mfa/recovery-codes', token, { password: TEST_PASSWORD, code: '000000' });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'body.code' }] });
    expect(wrongCode.json().message).toMatch(/6-digit code from your authenticator app/);
    const recovery = await post('/api/auth/mfa/recovery-codes', token, { password: TEST_PASSWORD, code: recoveryCodes[0] });
    expect(recovery.statusCode).toBe(400);
    const missing = await post('/api/auth/mfa/recovery-codes', token, { code: '123456' });
    expect(missing.statusCode).toBe(400);
    expect(await auditOf(admin.id, since)).toEqual(['wrong-password', 'wrong-second-factor', 'wrong-second-factor']);
    // Nothing changed: the recovery code offered was not spent, and all ten are left.
    expect((await status(token)).recoveryCodesLeft).toBe(10);
  });
});

describe('setting up a new authenticator', () => {
  it('shows a new QR code after the password and a current code; the old phone works until the new one is confirmed', async () => {
    const { admin, secret: oldSecret, token, recoveryCodes } = await enrolledAdmin();
    const other = (await signInWithCode(admin.email, nextCode(oldSecret))).json().token;
    const code = nextCode(oldSecret);
    const start = await post('/api/auth/mfa/replacement', token, { password: TEST_PASSWORD, code });
    expect(start.statusCode).toBe(200);
    const { secret: newSecret, qrCode, otpauthUrl } = start.json();
    expect(newSecret).not.toBe(oldSecret);
    expect(otpauthUrl).toContain(`secret=${newSecret}`);
    expect(qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row.mfaPendingSecret).toMatch(/^v2:/);
    expect(row.mfaPendingSecret).not.toContain(newSecret);

    // Not confirmed yet: the old phone still signs in, the new one does not.
    expect((await signInWithCode(admin.email, totp(base32Decode(newSecret), t.clock.now().getTime() + 30_000))).statusCode).toBe(401);
    expect((await signInWithCode(admin.email, nextCode(oldSecret))).statusCode).toBe(200);

    // A code of the new phone in the same 30-second step as the old phone's last one is accepted.
    const done = await post('/api/auth/mfa/enrolment/confirm', token, { code: totp(base32Decode(newSecret), t.clock.now().getTime()) });
    expect(done.statusCode).toBe(200);
    expect(done.json().recoveryCodes).toHaveLength(10);
    const renewed = done.json().token;
    expect((await me(renewed)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect(await status(renewed)).toEqual({ success: true, enabled: true, recoveryCodesLeft: 10, required: false });

    // Now the old phone and the old recovery codes are refused; the new phone signs in.
    expect((await signInWithCode(admin.email, nextCode(oldSecret))).statusCode).toBe(401);
    expect((await signInWithCode(admin.email, recoveryCodes[1])).statusCode).toBe(401);
    expect((await signInWithCode(admin.email, nextCode(newSecret))).statusCode).toBe(200);
  });

  it('accepts a recovery code instead of the lost phone, and spends it', async () => {
    const { admin, token, recoveryCodes } = await enrolledAdmin();
    const start = await post('/api/auth/mfa/replacement', token, { password: TEST_PASSWORD, code: recoveryCodes[2] });
    expect(start.statusCode).toBe(200);
    expect((await status(token)).recoveryCodesLeft).toBe(9);
    expect((await signInWithCode(admin.email, recoveryCodes[2])).statusCode).toBe(401);
  });

  it('refuses a wrong password or code, and audits them', async () => {
    const { admin, token } = await enrolledAdmin();
    const since = t.clock.now();
    t.clock.advance(1000);
    const wrongPassword = await post('/api/auth/mfa/replacement', token, { password: 'not the password', code: '123456' });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().message).toBe(MFA_ENROLMENT_PASSWORD_WRONG);
    const wrongCode = await post('/api/auth/mfa/replacement', token, { password: TEST_PASSWORD, code: 'aaaaa-bbbbb' });
    expect(wrongCode.statusCode).toBe(400);
    expect(wrongCode.json().message).toBe(WRONG_SECOND_FACTOR);
    expect(await auditOf(admin.id, since)).toEqual(['wrong-password', 'wrong-second-factor']);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row.mfaPendingSecret).toBeNull();
  });

  it('cannot be confirmed from a session still waiting for its second factor', async () => {
    const { admin, secret, token } = await enrolledAdmin();
    const { secret: newSecret } = (await post('/api/auth/mfa/replacement', token, { password: TEST_PASSWORD, code: nextCode(secret) })).json();
    const pending = (await adminLogin(admin.email)).token;
    const res = await post('/api/auth/mfa/enrolment/confirm', pending, { code: nextCode(newSecret) });
    expect(res.statusCode).toBe(409);
    expect((await me(token)).statusCode).toBe(200);
  });
});

describe('turning two-step verification off', () => {
  it('turns it off for the password and a code; the next sign-in asks for the password only', async () => {
    const { admin, secret, token } = await enrolledAdmin();
    const res = await post('/api/auth/mfa/disable', token, { password: TEST_PASSWORD, code: nextCode(secret) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MFA_TURNED_OFF });
    expect(await status(token)).toEqual({ success: true, enabled: false, recoveryCodesLeft: 0, required: false });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, admin.id));
    expect(row).toMatchObject({ mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null });
    expect(await t.database.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, admin.id))).toEqual([]);
    expect((await adminLogin(admin.email)).mfa).toBeUndefined();
    // Once off, managing it again answers that it is off.
    expect((await post('/api/auth/mfa/disable', token, { password: TEST_PASSWORD, code: '123456' })).json()).toMatchObject({ code: 'CONFLICT', message: MFA_NOT_ON });
  });

  it('refuses a wrong password or code, and audits them', async () => {
    const { admin, token } = await enrolledAdmin();
    const since = t.clock.now();
    t.clock.advance(1000);
    expect((await post('/api/auth/mfa/disable', token, { password: 'not the password', code: '123456' })).statusCode).toBe(400);
    expect((await post('/api/auth/mfa/disable', token, { password: TEST_PASSWORD, code: '000000' })).statusCode).toBe(400);
    expect(await auditOf(admin.id, since)).toEqual(['wrong-password', 'wrong-second-factor']);
    expect((await status(token)).enabled).toBe(true);
  });

  it('is refused with 403 while ADMIN_MFA_REQUIRED is on, before any code is spent', async () => {
    const required = await createTestApp({ ADMIN_MFA_REQUIRED: 'true' });
    try {
      const { secret, token, recoveryCodes } = await enrolledAdmin(required);
      expect((await status(token, required)).required).toBe(true);
      const res = await post('/api/auth/mfa/disable', token, { password: TEST_PASSWORD, code: recoveryCodes[0] }, required);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, code: 'FORBIDDEN', message: MFA_REQUIRED_CANNOT_TURN_OFF });
      expect((await status(token, required)).recoveryCodesLeft).toBe(10);
      expect((await post('/api/auth/mfa/disable', token, { password: TEST_PASSWORD, code: nextCode(secret, required) }, required)).statusCode).toBe(403);
      expect((await status(token, required)).enabled).toBe(true);
    } finally {
      await required.close();
    }
  });
});

describe('what every management step shares', () => {
  it('counts failures across the three steps like sign-ins: the sixth try waits, even with the right answers', async () => {
    const { admin, secret, token } = await enrolledAdmin();
    t.clock.advance(1000);
    const tries = [
      post('/api/auth/mfa/recovery-codes', token, { password: 'wrong 1', code: '123456' }),
      post('/api/auth/mfa/replacement', token, { password: 'wrong 2', code: '123456' }),
      post('/api/auth/mfa/disable', token, { password: TEST_PASSWORD, code: '000000' }),
      post('/api/auth/mfa/recovery-codes', token, { password: TEST_PASSWORD, code: '000001' }),
      post('/api/auth/mfa/replacement', token, { password: 'wrong 3', code: '123456' }),
    ];
    for (const attempt of tries) expect((await attempt).statusCode).toBe(400);
    const limited = await post('/api/auth/mfa/recovery-codes', token, { password: TEST_PASSWORD, code: nextCode(secret) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/Too many sign-in attempts/);
    const rows = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.userId, admin.id)).orderBy(loginAttempts.at);
    expect(rows.at(-1)?.result).toBe('rate-limited');
    // The same limit applies to signing in with the password.
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(429);
    // After the wait, the right answers work again.
    t.clock.advance(Number(limited.headers['retry-after']) * 1000);
    expect((await post('/api/auth/mfa/recovery-codes', token, { password: TEST_PASSWORD, code: nextCode(secret) })).statusCode).toBe(200);
  });

  it('answers 409 to an admin without a second factor, before checking anything', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const { token } = await signIn(t, admin, 'admin');
    for (const url of ['/api/auth/mfa/recovery-codes', '/api/auth/mfa/replacement', '/api/auth/mfa/disable']) {
      const res = await post(url, token, { password: 'anything', code: '123456' });
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toBe(MFA_NOT_ON);
    }
    expect(await auditOf(admin.id, new Date(0))).toEqual([]);
  });

  it('refuses clients and a session still waiting for its second factor', async () => {
    const client = await createUser(t, { role: 'client' });
    const { token: clientToken } = await signIn(t, client, 'client');
    const { admin } = await enrolledAdmin();
    const pending = (await adminLogin(admin.email)).token;
    for (const url of ['/api/auth/mfa/recovery-codes', '/api/auth/mfa/replacement', '/api/auth/mfa/disable']) {
      expect((await post(url, clientToken, { password: TEST_PASSWORD, code: '123456' })).statusCode, url).toBe(403);
      expect((await post(url, pending, { password: TEST_PASSWORD, code: '123456' })).statusCode, url).toBe(401);
    }
  });
});
