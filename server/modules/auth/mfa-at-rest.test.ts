import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mfaUsedSteps } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { appOnSameDatabase } from '../../../tests/helpers/second-app.ts';
import { createTestApp, createUser, TEST_MFA_ENCRYPTION_KEY, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { encryptLegacyMfaSecrets } from './mfa.service.ts';
import { MFA_SECRET_UNREADABLE, openMfaSecret, sealMfaSecret } from './secret-box.ts';
import { base32Decode, generateTotpSecret, totp } from './totp.ts';

// TOTP secrets are stored encrypted (AES-256-GCM under MFA_ENCRYPTION_KEY): decision 080.

const ORIGIN = 'http://localhost:3000';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_MFA_REQUIRED: 'true' });
});
afterAll(async () => t.close());

const headersOf = (token: string) => ({ cookie: `sid=${token}`, origin: ORIGIN });
const codeNow = (secret: string) => totp(base32Decode(secret), t.clock.now().getTime());
const storedOf = async (userId: string) =>
  (await t.database.db.select({ mfaSecret: users.mfaSecret, mfaPendingSecret: users.mfaPendingSecret }).from(users).where(eq(users.id, userId)))[0];

async function adminLogin(app: TestApp['app'], email: string) {
  const res = await app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email, password: TEST_PASSWORD } });
  expect(res.statusCode).toBe(200);
  return res.json() as { token: string; mfa?: string };
}

/** An admin whose row holds the given stored secret (sealed or plain) with the factor on. */
async function adminWithStoredSecret(stored: (id: string) => string) {
  const admin = await createUser(t, { role: 'admin' });
  await t.database.db.update(users).set({ mfaSecret: stored(admin.id), mfaEnabled: true }).where(eq(users.id, admin.id));
  return admin;
}


describe('TOTP secrets at rest', () => {
  it('stores only ciphertext during and after enrolment, and codes and recovery codes still sign in', async () => {
    const admin = await createUser(t, { role: 'admin' });
    const pending = (await adminLogin(t.app, admin.email)).token;
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/auth/mfa/enrolment', headers: headersOf(pending) })).json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const waiting = await storedOf(admin.id);
    expect(waiting.mfaSecret).toBeNull();
    expect(waiting.mfaPendingSecret).toMatch(/^v2:[\w-]{8}:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(waiting.mfaPendingSecret).not.toContain(secret);

    const done = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/enrolment/confirm', headers: headersOf(pending), payload: { code: codeNow(secret) } });
    expect(done.statusCode).toBe(200);
    const active = await storedOf(admin.id);
    expect(active.mfaPendingSecret).toBeNull();
    expect(active.mfaSecret).toMatch(/^v2:/);
    expect(active.mfaSecret).not.toContain(secret);
    // The whole row, as a backup would hold it, has no trace of the key.
    const [row] = await t.database.pool.query('SELECT row_to_json(users)::text AS json FROM users WHERE id = $1', [admin.id]).then((r) => r.rows);
    expect(row.json).not.toContain(secret);
    expect(openMfaSecret(t.config.mfaEncryptionKey, admin.id, active.mfaSecret!).secret).toBe(secret);

    t.clock.advance(30_000);
    const next = (await adminLogin(t.app, admin.email)).token;
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(next), payload: { code: codeNow(secret) } });
    expect(verified.statusCode).toBe(200);
    const viaRecovery = await t.app.inject({
      method: 'POST',
      url: '/api/auth/mfa/verify',
      headers: headersOf((await adminLogin(t.app, admin.email)).token),
      payload: { code: done.json().recoveryCodes[0] },
    });
    expect(viaRecovery.statusCode).toBe(200);
    expect(viaRecovery.json().usedRecoveryCode).toBe(true);
  });

  it('signs in an admin whose secret an earlier version stored in plain text, and encrypts it on that first use', async () => {
    const secret = generateTotpSecret();
    const admin = await adminWithStoredSecret(() => secret);
    const pending = (await adminLogin(t.app, admin.email)).token;
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(pending), payload: { code: codeNow(secret) } });
    expect(verified.statusCode).toBe(200);
    const stored = (await storedOf(admin.id)).mfaSecret!;
    expect(stored).toMatch(/^v2:/);
    expect(openMfaSecret(t.config.mfaEncryptionKey, admin.id, stored).secret).toBe(secret);
    // And it goes on working encrypted.
    t.clock.advance(30_000);
    const again = (await adminLogin(t.app, admin.email)).token;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(again), payload: { code: codeNow(secret) } })).statusCode).toBe(200);
  });

  it('encrypts every plain-text secret at start-up in one idempotent step, without logging it', async () => {
    const activeSecret = generateTotpSecret();
    const waitingSecret = generateTotpSecret();
    const admin = await adminWithStoredSecret(() => activeSecret);
    // An enrolment begun by an earlier version kept its waiting secret in mfa_secret, factor off.
    const enrolling = await createUser(t, { role: 'admin' });
    await t.database.db.update(users).set({ mfaSecret: waitingSecret }).where(eq(users.id, enrolling.id));

    const other = await appOnSameDatabase(t, { MFA_ENCRYPTION_KEY: TEST_MFA_ENCRYPTION_KEY });
    try {
      const count = /(\d+) TOTP secret\(s\) stored in plain text by an earlier version are now encrypted/.exec(other.lines.join(''));
      expect(Number(count?.[1])).toBeGreaterThanOrEqual(2);
      for (const s of [activeSecret, waitingSecret]) expect(other.lines.join('')).not.toContain(s);
      expect(other.lines.join('')).not.toContain(TEST_MFA_ENCRYPTION_KEY);
    } finally {
      await other.close();
    }
    const sealedActive = (await storedOf(admin.id)).mfaSecret!;
    const sealedWaiting = (await storedOf(enrolling.id)).mfaSecret!;
    expect(openMfaSecret(t.config.mfaEncryptionKey, admin.id, sealedActive).secret).toBe(activeSecret);
    expect(openMfaSecret(t.config.mfaEncryptionKey, enrolling.id, sealedWaiting).secret).toBe(waitingSecret);
    // Running it again changes nothing.
    expect(await encryptLegacyMfaSecrets(t.app)).toEqual({ sealed: 0, resealed: 0, underPreviousKey: 0, unreadable: 0 });
    expect((await storedOf(admin.id)).mfaSecret).toBe(sealedActive);

    // The enrolment begun before the upgrade can still be finished with its QR code.
    t.clock.advance(30_000);
    const pending = (await adminLogin(t.app, enrolling.email)).token;
    const done = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/enrolment/confirm', headers: headersOf(pending), payload: { code: codeNow(waitingSecret) } });
    expect(done.statusCode).toBe(200);
  });

  it('refuses codes with a clear error when the configured key is not the one the secret was encrypted with', async () => {
    const secret = generateTotpSecret();
    const admin = await adminWithStoredSecret((id) => sealMfaSecret(t.config.mfaEncryptionKey, id, secret));
    const wrongKey = randomBytes(32).toString('base64');
    const other = await appOnSameDatabase(t, { MFA_ENCRYPTION_KEY: wrongKey });
    try {
      expect(other.lines.join('')).toMatch(/TOTP secret\(s\) cannot be decrypted with MFA_ENCRYPTION_KEY/);
      const pending = (await adminLogin(other.app, admin.email)).token;
      const res = await other.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(pending), payload: { code: codeNow(secret) } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', message: MFA_SECRET_UNREADABLE });
      // Not signed in, and the code was not spent.
      expect((await other.app.inject({ method: 'GET', url: '/api/auth/me', headers: headersOf(pending) })).statusCode).toBe(401);
      expect(await t.database.db.select().from(mfaUsedSteps).where(eq(mfaUsedSteps.userId, admin.id))).toEqual([]);
      const log = other.lines.join('');
      expect(log).toMatch(/MFA_ENCRYPTION_KEY is not the key it was encrypted with/);
      expect(log).not.toContain(secret);
      expect(log).not.toContain(wrongKey);
    } finally {
      await other.close();
    }
    // With the right key the same code works.
    const pending = (await adminLogin(t.app, admin.email)).token;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(pending), payload: { code: codeNow(secret) } })).statusCode).toBe(200);
  });

  it("does not open a sealed secret copied into another admin's row", async () => {
    const secret = generateTotpSecret();
    const owner = await adminWithStoredSecret((id) => sealMfaSecret(t.config.mfaEncryptionKey, id, secret));
    const thief = await adminWithStoredSecret(() => 'placeholder');
    await t.database.db.update(users).set({ mfaSecret: (await storedOf(owner.id)).mfaSecret }).where(eq(users.id, thief.id));
    const pending = (await adminLogin(t.app, thief.email)).token;
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(pending), payload: { code: codeNow(secret) } });
    expect(res.statusCode).toBe(503);
  });

  it('warns at start when the public development key is in use outside tests', async () => {
    const dev = await appOnSameDatabase(t, { NODE_ENV: 'development' });
    try {
      const warning = dev.lines.map((l) => JSON.parse(l)).find((l) => /MFA_ENCRYPTION_KEY is not set/.test(l.msg));
      expect(warning).toMatchObject({ level: 40 });
      expect(warning.msg).toContain('public development key');
    } finally {
      await dev.close();
    }
    const test = await appOnSameDatabase(t, {});
    try {
      expect(test.lines.join('')).not.toMatch(/MFA_ENCRYPTION_KEY is not set/);
    } finally {
      await test.close();
    }
  });
});
