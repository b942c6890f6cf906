import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../db/schema/mail.ts';
import { createTestApp, createUser, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { settleAfterAnswer } from '../../lib/after-answer.ts';
import { ACCOUNT_FAILURE_LIMIT } from './login-attempts.service.ts';
import { base32Decode, totp } from './totp.ts';
import { TRUSTED_DEVICE_COOKIES } from './trusted-device.ts';

// Decision 192: guesses from elsewhere cannot keep an account's owner out. The owner's browser
// (trusted after a complete sign-in, or after a password reset through the mailed link) is counted
// on its own, so the right password still gets in while a stranger keeps the account's limit busy.

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_MFA_REQUIRED: 'true' });
});
afterAll(async () => t.close());

let ipCounter = 1;
const freshIp = () => `198.51.100.${ipCounter++}`;
const clientLogin = (username: string, password: string, cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: freshIp(), headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) } });
/** The trusted-device cookie an answer set, as a Cookie header; undefined when it set none. */
const deviceCookieOf = (res: { cookies: { name: string; value: string }[] }, portal: 'client' | 'admin') => {
  const c = res.cookies.find((x) => x.name === TRUSTED_DEVICE_COOKIES[portal]);
  return c ? `${c.name}=${c.value}` : undefined;
};
/** A stranger's burst of wrong passwords from many addresses: enough to put the account under its limit. */
async function attack(username: string, n = ACCOUNT_FAILURE_LIMIT + 3) {
  for (let i = 0; i < n; i++) await clientLogin(username, `guess number ${i}`);
}

describe('a sign-in limit that cannot lock the owner out', () => {
  it("lets the owner's trusted browser in with the right password while strangers keep the account under its limit", async () => {
    t.clock.set(new Date('2026-12-10T09:00:00Z'));
    const client = await createUser(t, { role: 'client' });
    const first = await clientLogin(client.username!, TEST_PASSWORD);
    expect(first.statusCode).toBe(200);
    const device = deviceCookieOf(first, 'client');
    expect(device).toBeDefined();
    expect(first.cookies.find((c) => c.name === TRUSTED_DEVICE_COOKIES.client)).toMatchObject({ httpOnly: true, path: '/api/auth', sameSite: 'Strict' });

    t.clock.advance(60 * 60_000);
    await attack(client.username!);
    // A browser without the cookie is refused, even with the right password (as before).
    expect((await clientLogin(client.username!, TEST_PASSWORD)).statusCode).toBe(429);
    // The owner's browser gets in, and again while the stranger goes on.
    expect((await clientLogin(client.username!, TEST_PASSWORD, device)).statusCode).toBe(200);
    for (let round = 0; round < 3; round++) {
      t.clock.advance(2 * 60_000);
      await attack(client.username!, 2);
      expect((await clientLogin(client.username!, TEST_PASSWORD, device)).statusCode).toBe(200);
    }
  });

  it("counts the trusted browser's own failures, so the cookie is no way round the limit", async () => {
    const client = await createUser(t, { role: 'client' });
    const device = deviceCookieOf(await clientLogin(client.username!, TEST_PASSWORD), 'client');
    t.clock.advance(60 * 60_000);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT; i++) expect((await clientLogin(client.username!, `wrong ${i}`, device)).statusCode).toBe(401);
    expect((await clientLogin(client.username!, TEST_PASSWORD, device)).statusCode).toBe(429);
  });

  it('is a trusted browser only for the account it signed in to', async () => {
    const owner = await createUser(t, { role: 'client' });
    const other = await createUser(t, { role: 'client' });
    const device = deviceCookieOf(await clientLogin(owner.username!, TEST_PASSWORD), 'client');
    t.clock.advance(60 * 60_000);
    await attack(other.username!);
    expect((await clientLogin(other.username!, TEST_PASSWORD, device)).statusCode).toBe(429);
    // A made-up cookie is no better.
    expect((await clientLogin(other.username!, TEST_PASSWORD, `${TRUSTED_DEVICE_COOKIES.client}=AAAAAAAAAAAAAAAAAAAAAA.1800000000000.${'A'.repeat(43)}`)).statusCode).toBe(429);
  });

  it('trusts an admin browser only after the second factor, not after the password alone', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const adminLogin = (cookie?: string) =>
      t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email: admin.email, password: TEST_PASSWORD }, remoteAddress: freshIp(), headers: { origin: ORIGIN, ...(cookie ? { cookie } : {}) } });
    const post = (url: string, token: string, payload: object, cookie = '') =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress: freshIp(), headers: { origin: ORIGIN, cookie: `sid=${token}${cookie ? `; ${cookie}` : ''}` } });
    const enrolling = await adminLogin();
    expect(deviceCookieOf(enrolling, 'admin')).toBeUndefined();
    const pending = enrolling.json().token;
    const { secret } = (await post('/api/auth/mfa/enrolment', pending, {})).json();
    await post('/api/auth/mfa/enrolment/confirm', pending, { code: totp(base32Decode(secret), t.clock.now().getTime()) });
    t.clock.advance(30_000);
    const signIn = await adminLogin();
    expect(deviceCookieOf(signIn, 'admin')).toBeUndefined();
    const verified = await post('/api/auth/mfa/verify', signIn.json().token, { code: totp(base32Decode(secret), t.clock.now().getTime()) });
    expect(verified.statusCode).toBe(200);
    const device = deviceCookieOf(verified, 'admin');
    expect(device).toBeDefined();

    t.clock.advance(60 * 60_000);
    for (let i = 0; i < ACCOUNT_FAILURE_LIMIT + 2; i++) {
      await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', payload: { email: admin.email, password: `guess ${i}` }, remoteAddress: freshIp(), headers: { origin: ORIGIN } });
    }
    expect((await adminLogin()).statusCode).toBe(429);
    const owner = await adminLogin(device);
    expect(owner.statusCode).toBe(200);
    const done = await post('/api/auth/mfa/verify', owner.json().token, { code: totp(base32Decode(secret), t.clock.now().getTime() + 30_000) }, device);
    expect(done.statusCode).toBe(200);
  });

  it('trusts the browser that set a new password through the mailed reset link', async () => {
    const client = await createUser(t, { role: 'client' });
    t.clock.advance(60 * 60_000);
    await attack(client.username!);
    // The owner, on a new browser, asks for a reset link; its token is read from the outbox mail.
    await t.app.inject({ method: 'POST', url: '/api/auth/password/forgot', payload: { identifier: client.username! }, remoteAddress: freshIp(), headers: { origin: ORIGIN } });
    await settleAfterAnswer(t.app);
    const [mail] = await t.database.db.select().from(mailOutbox).where(and(eq(mailOutbox.to, client.email), eq(mailOutbox.kind, 'password-reset')));
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const NEW_PASSWORD = 'a brand new long passphrase 42';
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/password/reset', payload: { token, password: NEW_PASSWORD }, remoteAddress: freshIp(), headers: { origin: ORIGIN } });
    expect(reset.statusCode).toBe(200);
    const device = deviceCookieOf(reset, 'client');
    expect(device).toBeDefined();
    expect((await clientLogin(client.username!, NEW_PASSWORD)).statusCode).toBe(429);
    expect((await clientLogin(client.username!, NEW_PASSWORD, device)).statusCode).toBe(200);
  });
});
