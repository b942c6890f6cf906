import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MFA_ENROLMENT_PASSWORD_REQUIRED, MFA_ENROLMENT_PASSWORD_WRONG } from '../../../common/schemas/auth.ts';
import { loginAttempts } from '../../db/schema/auth.ts';
import { createTestApp, createUser, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { base32Decode, totp } from './totp.ts';

// An admin may turn the second factor on from the Account section even where it is not required.

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_MFA_REQUIRED: 'false' });
});
afterAll(async () => t.close());

const headersOf = (token: string) => ({ cookie: `sid=${token}`, origin: ORIGIN });
const post = (url: string, token: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: headersOf(token), ...(payload ? { payload } : {}) });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/me', headers: headersOf(token) });

async function signedInAdmin() {
  const admin = await createUser(t, { role: 'admin' });
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
  expect(res.json().mfa).toBeUndefined(); // not required here: a full session at once
  return { admin, token: res.json().token as string };
}

describe('turning the second factor on by choice', () => {
  it('asks a fully signed-in admin for the password again before showing the QR code', async () => {
    const { token } = await signedInAdmin();
    const none = await post('/api/auth/mfa/enrolment', token);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: MFA_ENROLMENT_PASSWORD_REQUIRED });
    const wrong = await post('/api/auth/mfa/enrolment', token, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(MFA_ENROLMENT_PASSWORD_WRONG);
    const right = await post('/api/auth/mfa/enrolment', token, { password: TEST_PASSWORD });
    expect(right.statusCode).toBe(200);
    expect(right.json().secret).toMatch(/^[A-Z2-7]+$/);
  });

  it('turns it on with a first code, ends the other sessions, keeps this one (new token), and asks for a code at the next sign-in', async () => {
    const { admin, token } = await signedInAdmin();
    // The same admin signed in on another device.
    const other = (await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } })).json().token;
    expect((await me(other)).statusCode).toBe(200);
    const status = await t.app.inject({ method: 'GET', url: '/api/auth/mfa', headers: headersOf(token) });
    expect(status.json()).toEqual({ success: true, enabled: false, recoveryCodesLeft: 0, required: false });

    const { secret } = (await post('/api/auth/mfa/enrolment', token, { password: TEST_PASSWORD })).json();
    const done = await post('/api/auth/mfa/enrolment/confirm', token, { code: totp(base32Decode(secret), t.clock.now().getTime()) });
    expect(done.statusCode).toBe(200);
    expect(done.json().recoveryCodes).toHaveLength(10);
    const fresh = done.json().token;
    expect(fresh).not.toBe(token);
    expect((await me(fresh)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/mfa', headers: headersOf(fresh) })).json()).toEqual({ success: true, enabled: true, recoveryCodesLeft: 10, required: false });
    // Once on, it cannot be started again, even with the password.
    expect((await post('/api/auth/mfa/enrolment', fresh, { password: TEST_PASSWORD })).statusCode).toBe(409);

    const next = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
    expect(next.json().mfa).toBe('verify');
  });

  it('audits wrong passwords and limits them like sign-ins', async () => {
    const { admin, token } = await signedInAdmin();
    t.clock.advance(1000); // failures count from after the last successful sign-in
    for (let i = 0; i < 5; i++) expect((await post('/api/auth/mfa/enrolment', token, { password: `wrong ${i}` })).statusCode).toBe(400);
    const limited = await post('/api/auth/mfa/enrolment', token, { password: TEST_PASSWORD });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    const rows = await t.database.db.select().from(loginAttempts).where(eq(loginAttempts.userId, admin.id)).orderBy(loginAttempts.at);
    expect(rows.map((r) => r.result)).toEqual(['success', ...Array(5).fill('wrong-password'), 'rate-limited']);
  });

  it('needs no password again right after the password, when the second factor is required', async () => {
    const required = await createTestApp({ ADMIN_MFA_REQUIRED: 'true' });
    try {
      const admin = await createUser(required, { role: 'admin' });
      const login = await required.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
      expect(login.json().mfa).toBe('enrol');
      const start = await required.app.inject({ method: 'POST', url: '/api/auth/mfa/enrolment', headers: headersOf(login.json().token) });
      expect(start.statusCode).toBe(200);
    } finally {
      await required.close();
    }
  });
});
