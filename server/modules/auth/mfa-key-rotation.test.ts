import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users.ts';
import { sealMfaSecretV1 } from '../../../tests/helpers/mfa-v1-seal.ts';
import { appOnSameDatabase } from '../../../tests/helpers/second-app.ts';
import { createTestApp, createUser, TEST_MFA_ENCRYPTION_KEY, TEST_PASSWORD, type TestApp } from '../../../tests/helpers/test-app.ts';
import { encryptLegacyMfaSecrets } from './mfa.service.ts';
import { MFA_SECRET_UNREADABLE, mfaKeyId, openMfaSecret, sealMfaSecret } from './secret-box.ts';
import { base32Decode, generateTotpSecret, totp } from './totp.ts';

// Rotating MFA_ENCRYPTION_KEY with MFA_ENCRYPTION_KEY_PREVIOUS: decision 082. The test app's key
// (TEST_MFA_ENCRYPTION_KEY) plays the old key; NEW_KEY replaces it.

const ORIGIN = 'http://localhost:3000';
const OLD_KEY = Buffer.from(TEST_MFA_ENCRYPTION_KEY, 'base64');
const NEW_KEY = randomBytes(32);
const NEW_KEY_TEXT = NEW_KEY.toString('base64');
const ROTATED = { MFA_ENCRYPTION_KEY: NEW_KEY_TEXT, MFA_ENCRYPTION_KEY_PREVIOUS: TEST_MFA_ENCRYPTION_KEY };
const NEW_KEY_ONLY = { MFA_ENCRYPTION_KEY: NEW_KEY_TEXT };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_MFA_REQUIRED: 'true' });
});
afterAll(async () => t.close());
// Each test counts exactly the secrets it stores.
beforeEach(async () => {
  await t.database.db.update(users).set({ mfaSecret: null, mfaPendingSecret: null, mfaEnabled: false });
});

const headersOf = (token: string) => ({ cookie: `sid=${token}`, origin: ORIGIN });
const codeNow = (secret: string) => totp(base32Decode(secret), t.clock.now().getTime());
const storedOf = async (userId: string) =>
  (await t.database.db.select({ mfaSecret: users.mfaSecret, mfaPendingSecret: users.mfaPendingSecret }).from(users).where(eq(users.id, userId)))[0];
const sealedUnderNewKey = new RegExp(`^v2:${mfaKeyId(NEW_KEY)}:`);

/** An admin whose row holds the given value, as the active secret (factor on) or as the waiting one (factor off). */
async function adminWith(column: 'mfaSecret' | 'mfaPendingSecret', stored: (id: string) => string) {
  const admin = await createUser(t, { role: 'admin' });
  await t.database.db
    .update(users)
    .set(column === 'mfaSecret' ? { mfaSecret: stored(admin.id), mfaEnabled: true } : { mfaPendingSecret: stored(admin.id) })
    .where(eq(users.id, admin.id));
  return admin;
}

type OtherApp = Awaited<ReturnType<typeof appOnSameDatabase>>;

async function signInWithCode(app: OtherApp['app'], email: string, code: string) {
  const login = await app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email, password: TEST_PASSWORD } });
  expect(login.statusCode).toBe(200);
  expect(login.json().mfa).toBeDefined();
  return app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(login.json().token), payload: { code } });
}

/** Neither a secret nor a key (in any notation) appears in a log. */
function expectNothingSecretIn(log: string, secrets: string[]) {
  for (const s of secrets) expect(log).not.toContain(s);
  for (const key of [OLD_KEY, NEW_KEY]) for (const encoding of ['base64', 'base64url', 'hex'] as const) expect(log).not.toContain(key.toString(encoding));
}

describe('rotating the TOTP encryption key', () => {
  it('re-seals at start-up every secret under the previous key (v1 and v2, active and waiting), logs the counts, and then the previous key can go', async () => {
    const [v2Secret, v1Secret, waitingSecret] = [generateTotpSecret(), generateTotpSecret(), generateTotpSecret()];
    const v2Admin = await adminWith('mfaSecret', (id) => sealMfaSecret(OLD_KEY, id, v2Secret));
    const v1Admin = await adminWith('mfaSecret', (id) => sealMfaSecretV1(OLD_KEY, id, v1Secret));
    const enrolling = await adminWith('mfaPendingSecret', (id) => sealMfaSecret(OLD_KEY, id, waitingSecret));

    const rotated = await appOnSameDatabase(t, ROTATED);
    let resealed: string[];
    try {
      const line = rotated.messages().find((m) => m.msg.startsWith('TOTP key rotation:'));
      expect(line).toMatchObject({
        level: 30,
        msg: 'TOTP key rotation: 3 TOTP secret(s) re-encrypted from MFA_ENCRYPTION_KEY_PREVIOUS to MFA_ENCRYPTION_KEY, 0 still under a previous key, 0 that no configured key opens. Nothing is left under the previous key: MFA_ENCRYPTION_KEY_PREVIOUS can be removed.',
      });
      expectNothingSecretIn(rotated.text(), [v2Secret, v1Secret, waitingSecret]);
      resealed = [(await storedOf(v2Admin.id)).mfaSecret!, (await storedOf(v1Admin.id)).mfaSecret!, (await storedOf(enrolling.id)).mfaPendingSecret!];
      for (const value of resealed) expect(value).toMatch(sealedUnderNewKey);
      expect(openMfaSecret(NEW_KEY, v2Admin.id, resealed[0]).secret).toBe(v2Secret);
      expect(openMfaSecret(NEW_KEY, v1Admin.id, resealed[1]).secret).toBe(v1Secret);
      expect(openMfaSecret(NEW_KEY, enrolling.id, resealed[2]).secret).toBe(waitingSecret);
      // A second run finds nothing to do and changes nothing.
      expect(await encryptLegacyMfaSecrets(rotated.app)).toEqual({ sealed: 0, resealed: 0, underPreviousKey: 0, unreadable: 0 });
      expect((await storedOf(v2Admin.id)).mfaSecret).toBe(resealed[0]);
    } finally {
      await rotated.close();
    }

    // The operator removes MFA_ENCRYPTION_KEY_PREVIOUS: everyone still signs in, the enrolment still finishes.
    const after = await appOnSameDatabase(t, NEW_KEY_ONLY);
    try {
      expect(after.text()).not.toMatch(/cannot be decrypted/);
      expect((await signInWithCode(after.app, v2Admin.email, codeNow(v2Secret))).statusCode).toBe(200);
      expect((await signInWithCode(after.app, v1Admin.email, codeNow(v1Secret))).statusCode).toBe(200);
      const pending = await after.app.inject({
        method: 'POST',
        url: '/api/auth/adminlogin',
        headers: { origin: ORIGIN },
        payload: { email: enrolling.email, password: TEST_PASSWORD },
      });
      const confirmed = await after.app.inject({
        method: 'POST',
        url: '/api/auth/mfa/enrolment/confirm',
        headers: headersOf(pending.json().token),
        payload: { code: codeNow(waitingSecret) },
      });
      expect(confirmed.statusCode).toBe(200);
    } finally {
      await after.close();
    }
  });

  it('signs in with a secret still under the previous key (v1 or v2) and re-seals it under the new key on that use', async () => {
    // Started first, so these rows are as a process still on the old key (or an old backup) writes them later.
    const rotated = await appOnSameDatabase(t, ROTATED);
    try {
      for (const seal of [sealMfaSecret, sealMfaSecretV1]) {
        const secret = generateTotpSecret();
        const admin = await adminWith('mfaSecret', (id) => seal(OLD_KEY, id, secret));
        const before = (await storedOf(admin.id)).mfaSecret!;
        expect((await signInWithCode(rotated.app, admin.email, codeNow(secret))).statusCode).toBe(200);
        const after = (await storedOf(admin.id)).mfaSecret!;
        expect(after).not.toBe(before);
        expect(after).toMatch(sealedUnderNewKey);
        expect(openMfaSecret(NEW_KEY, admin.id, after).secret).toBe(secret);
        // And it goes on working under the new key.
        t.clock.advance(30_000);
        expect((await signInWithCode(rotated.app, admin.email, codeNow(secret))).statusCode).toBe(200);
        expect((await storedOf(admin.id)).mfaSecret).toBe(after);
      }
      expectNothingSecretIn(rotated.text(), []);
    } finally {
      await rotated.close();
    }
  });

  it('answers the clear 503 for a secret under the old key when the previous key is not configured, and logs the count', async () => {
    const secret = generateTotpSecret();
    const admin = await adminWith('mfaSecret', (id) => sealMfaSecret(OLD_KEY, id, secret));
    const stored = (await storedOf(admin.id)).mfaSecret!;
    const newOnly = await appOnSameDatabase(t, NEW_KEY_ONLY);
    try {
      const error = newOnly.messages().find((m) => /TOTP secret\(s\) cannot be decrypted/.test(m.msg));
      expect(error?.level).toBe(50);
      expect(error?.msg).toMatch(/^1 TOTP secret\(s\) cannot be decrypted with MFA_ENCRYPTION_KEY or MFA_ENCRYPTION_KEY_PREVIOUS/);
      // No previous key configured: no rotation line that could say it is safe to remove one.
      expect(newOnly.text()).not.toMatch(/TOTP key rotation/);
      const res = await signInWithCode(newOnly.app, admin.email, codeNow(secret));
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ success: false, code: 'SERVICE_UNAVAILABLE', message: MFA_SECRET_UNREADABLE });
      expect(newOnly.text()).toMatch(/nor is any key of MFA_ENCRYPTION_KEY_PREVIOUS/);
      expectNothingSecretIn(newOnly.text(), [secret]);
    } finally {
      await newOnly.close();
    }
    expect((await storedOf(admin.id)).mfaSecret).toBe(stored);
    // With the old key back as the previous one, the same code signs in (it was not spent).
    const rotated = await appOnSameDatabase(t, ROTATED);
    try {
      expect((await signInWithCode(rotated.app, admin.email, codeNow(secret))).statusCode).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it('re-seals each secret exactly once when several processes run the start-up step together', async () => {
    const [a, b] = await Promise.all([appOnSameDatabase(t, ROTATED), appOnSameDatabase(t, ROTATED)]);
    try {
      const admins = [];
      for (let i = 0; i < 6; i++) {
        const secret = generateTotpSecret();
        const seal = i % 2 ? sealMfaSecretV1 : sealMfaSecret;
        admins.push({ secret, ...(await adminWith('mfaSecret', (id) => seal(OLD_KEY, id, secret))) });
      }
      const [ra, rb] = await Promise.all([encryptLegacyMfaSecrets(a.app), encryptLegacyMfaSecrets(b.app)]);
      expect(ra.resealed + rb.resealed).toBe(6);
      for (const r of [ra, rb]) expect(r).toMatchObject({ sealed: 0, underPreviousKey: 0, unreadable: 0 });
      for (const admin of admins) {
        const stored = (await storedOf(admin.id)).mfaSecret!;
        expect(stored).toMatch(sealedUnderNewKey);
        expect(openMfaSecret(NEW_KEY, admin.id, stored).secret).toBe(admin.secret);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('warns to keep the previous key while a secret is still under it, and says it can go once none is', async () => {
    const secret = generateTotpSecret();
    const admin = await adminWith('mfaSecret', (id) => sealMfaSecret(OLD_KEY, id, secret));
    // The database refuses to change this row, as if a process still on the old key kept writing it.
    await t.database.pool.query(`CREATE FUNCTION hold_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF OLD.id = '${admin.id}' THEN RETURN NULL; END IF; RETURN NEW; END $$`);
    await t.database.pool.query('CREATE TRIGGER hold_row BEFORE UPDATE ON users FOR EACH ROW EXECUTE FUNCTION hold_row()');
    try {
      const rotated = await appOnSameDatabase(t, ROTATED);
      try {
        const line = rotated.messages().find((m) => m.msg.startsWith('TOTP key rotation:'));
        expect(line).toMatchObject({
          level: 40,
          msg: 'TOTP key rotation: 0 TOTP secret(s) re-encrypted from MFA_ENCRYPTION_KEY_PREVIOUS to MFA_ENCRYPTION_KEY, 1 still under a previous key, 0 that no configured key opens. Keep MFA_ENCRYPTION_KEY_PREVIOUS and restart once every process runs with the new key.',
        });
        expect(rotated.text()).not.toMatch(/can be removed/);
      } finally {
        await rotated.close();
      }
    } finally {
      await t.database.pool.query('DROP TRIGGER hold_row ON users');
      await t.database.pool.query('DROP FUNCTION hold_row()');
    }
    const restarted = await appOnSameDatabase(t, ROTATED);
    try {
      expect(restarted.messages().find((m) => m.msg.startsWith('TOTP key rotation:'))?.msg).toMatch(
        /^TOTP key rotation: 1 TOTP secret\(s\) re-encrypted .*, 0 still under a previous key, .* MFA_ENCRYPTION_KEY_PREVIOUS can be removed\.$/,
      );
      expect((await storedOf(admin.id)).mfaSecret).toMatch(sealedUnderNewKey);
    } finally {
      await restarted.close();
    }
  });

  it('keeps reading v1 values under the current key, and leaves them as they are', async () => {
    const secret = generateTotpSecret();
    const admin = await adminWith('mfaSecret', (id) => sealMfaSecretV1(OLD_KEY, id, secret));
    const stored = (await storedOf(admin.id)).mfaSecret!;
    expect(await encryptLegacyMfaSecrets(t.app)).toEqual({ sealed: 0, resealed: 0, underPreviousKey: 0, unreadable: 0 });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/adminlogin', headers: { origin: ORIGIN }, payload: { email: admin.email, password: TEST_PASSWORD } });
    const verified = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/verify', headers: headersOf(login.json().token), payload: { code: codeNow(secret) } });
    expect(verified.statusCode).toBe(200);
    // Earlier versions still running during a rolling upgrade read v1, so it is not rewritten.
    expect((await storedOf(admin.id)).mfaSecret).toBe(stored);
  });
});
