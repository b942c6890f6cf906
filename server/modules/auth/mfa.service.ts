import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict } from '../../../common/errors.ts';
import { MFA_NOT_ON } from '../../../common/schemas/auth.ts';
import { mfaRecoveryCodes, mfaUsedSteps } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { MfaSecretUnreadableError, openMfaSecret, sealMfaSecret, type MfaKeyring, type OpenedMfaSecret } from './secret-box.ts';
import { base32Decode, generateTotpSecret, matchTotp, otpauthUrl } from './totp.ts';
import { loadQrCode } from '../../lib/lazy-modules.ts';
import { publishedCompany } from '../site-content/published-company.ts';

const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: codes are read from paper and typed by hand.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const MFA_ALREADY_ON = 'A second factor is already set up for this account.';
export const WRONG_SECOND_FACTOR = 'That code is not valid. Enter the current 6-digit code from your authenticator app, or one of your recovery codes.';

const hashRecoveryCode = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

function newRecoveryCode(): string {
  let raw = '';
  for (let i = 0; i < 10; i++) raw += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

async function mfaStateOf(app: FastifyInstance, userId: string) {
  const [user] = await app.db
    .select({ email: users.email, mfaSecret: users.mfaSecret, mfaPendingSecret: users.mfaPendingSecret, mfaEnabled: users.mfaEnabled })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue');
  return user;
}

/** The current key and the ones it replaced (decision 082). */
const keyringOf = (app: FastifyInstance): MfaKeyring => ({ current: app.config.mfaEncryptionKey, previous: app.config.mfaPreviousEncryptionKeys });

/** The base32 secret of a stored value; logs (without the value) when no configured key can open it. */
function openSecret(app: FastifyInstance, userId: string, stored: string) {
  try {
    return openMfaSecret(keyringOf(app), userId, stored);
  } catch (err) {
    if (err instanceof MfaSecretUnreadableError) {
      app.log.error({ userId }, 'a stored TOTP secret cannot be decrypted: MFA_ENCRYPTION_KEY is not the key it was encrypted with (nor is any key of MFA_ENCRYPTION_KEY_PREVIOUS), or the value is damaged');
    }
    throw err;
  }
}

const seal = (app: FastifyInstance, userId: string, secret: string) => sealMfaSecret(app.config.mfaEncryptionKey, userId, secret);

/** A new secret kept aside (encrypted) until a first code confirms it; answered with its QR code. */
async function newPendingSecret(app: FastifyInstance, userId: string, email: string) {
  const secret = generateTotpSecret();
  await app.db.update(users).set({ mfaPendingSecret: seal(app, userId, secret), updatedAt: app.clock.now() }).where(eq(users.id, userId));
  const url = otpauthUrl({ issuer: publishedCompany(app).shortName, account: email, secret });
  // Loaded on the first enrolment of a process (decision 180): most processes never draw a QR code.
  const QRCode = await loadQrCode();
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUrl: url, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * Starts enrolment of an authenticator app: a new secret is kept (not yet active) and returned with
 * its QR code. Refused once a second factor is active, so a stolen password cannot replace it.
 */
export async function startMfaEnrolment(app: FastifyInstance, userId: string) {
  const state = await mfaStateOf(app, userId);
  if (state.mfaEnabled) throw conflict(MFA_ALREADY_ON);
  return newPendingSecret(app, userId, state.email);
}

/**
 * Starts moving the second factor to a new phone (the caller has checked password and code): the
 * new secret waits beside the active one, which keeps working until a code of the new one confirms it.
 */
export async function startMfaReplacement(app: FastifyInstance, userId: string) {
  const state = await mfaStateOf(app, userId);
  if (!state.mfaEnabled) throw conflict(MFA_NOT_ON);
  return newPendingSecret(app, userId, state.email);
}

/** Accepts an authenticator code once: a code already used (same time step) is refused. */
async function acceptTotp(app: FastifyInstance, userId: string, stored: string, code: string): Promise<boolean> {
  const { secret, key } = openSecret(app, userId, stored);
  const step = matchTotp(base32Decode(secret), code, app.clock.now().getTime());
  if (step === null) return false;
  const inserted = await app.db
    .insert(mfaUsedSteps)
    .values({ userId, step, usedAt: app.clock.now() })
    .onConflictDoNothing()
    .returning({ step: mfaUsedSteps.step });
  if (inserted.length !== 1) return false;
  // Written before encryption or under a previous key (an earlier version, a row restored from an old
  // backup, a process still on the old key during a rolling deploy): seal it under the current key now.
  if (key !== 'current') await app.db.update(users).set({ mfaSecret: seal(app, userId, secret) }).where(and(eq(users.id, userId), eq(users.mfaSecret, stored)));
  return true;
}

/** Replaces the user's recovery codes with new ones and returns them (shown once). */
export async function regenerateRecoveryCodes(app: FastifyInstance, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await app.db.transaction(async (tx) => {
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await tx.insert(mfaRecoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(c), createdAt: app.clock.now() })));
  });
  return codes;
}

/**
 * Finishes enrolment (first phone, or a new one) with a first code of the waiting secret: it becomes
 * the active secret, the old one (if any) stops working, and new recovery codes are returned.
 * `replacing: false` refuses when a factor is already on (the half-signed-in path).
 */
export async function confirmMfaEnrolment(app: FastifyInstance, userId: string, code: string, options: { replacing: boolean }, who: AuditContext): Promise<string[] | null> {
  const state = await mfaStateOf(app, userId);
  if (state.mfaEnabled && (!options.replacing || !state.mfaPendingSecret)) throw conflict(MFA_ALREADY_ON);
  // Enrolments started by earlier versions kept the waiting secret in mfa_secret (factor still off).
  const stored = state.mfaPendingSecret ?? (state.mfaEnabled ? null : state.mfaSecret);
  if (!stored) throw new AppError('BAD_REQUEST', 'Start the set-up first: scan the QR code, then enter a code.');
  const { secret } = openSecret(app, userId, stored);
  const step = matchTotp(base32Decode(secret), code, app.clock.now().getTime());
  if (step === null) return null;
  const confirmed = await app.db.transaction(async (tx) => {
    // Only the secret that was checked: a second confirmation racing this one finds nothing waiting.
    const updated = await tx
      .update(users)
      .set({ mfaSecret: seal(app, userId, secret), mfaPendingSecret: null, mfaEnabled: true, updatedAt: app.clock.now() })
      .where(and(eq(users.id, userId), state.mfaPendingSecret ? eq(users.mfaPendingSecret, stored) : and(isNull(users.mfaPendingSecret), eq(users.mfaSecret, stored))))
      .returning({ id: users.id });
    if (!updated.length) return false;
    // Steps used by the old secret mean nothing for the new one; the step just used is spent.
    await tx.delete(mfaUsedSteps).where(eq(mfaUsedSteps.userId, userId));
    await tx.insert(mfaUsedSteps).values({ userId, step, usedAt: app.clock.now() });
    await recordAudit(tx, who, { action: state.mfaEnabled ? 'staff.mfa-replace' : 'staff.mfa-enable', entityId: userId, before: { mfaEnabled: state.mfaEnabled, authenticator: 'old' }, after: { mfaEnabled: true, authenticator: 'new' } });
    return true;
  });
  if (!confirmed) return null;
  return regenerateRecoveryCodes(app, userId);
}

/** Checks a second-factor code: a current authenticator code, or an unused recovery code (then spent). */
export async function checkSecondFactor(
  app: FastifyInstance,
  userId: string,
  code: string,
  options: { recoveryCodes: boolean } = { recoveryCodes: true },
): Promise<'totp' | 'recovery' | null> {
  const state = await mfaStateOf(app, userId);
  if (!state.mfaEnabled || !state.mfaSecret) return null;
  if (/^\d{6}$/.test(code)) return (await acceptTotp(app, userId, state.mfaSecret, code)) ? 'totp' : null;
  if (!options.recoveryCodes) return null;
  const normal = normaliseRecoveryCode(code);
  if (normal.length !== 10) return null;
  const spent = await app.db
    .update(mfaRecoveryCodes)
    .set({ usedAt: app.clock.now() })
    .where(and(eq(mfaRecoveryCodes.userId, userId), eq(mfaRecoveryCodes.codeHash, hashRecoveryCode(normal)), isNull(mfaRecoveryCodes.usedAt)))
    .returning({ id: mfaRecoveryCodes.id });
  return spent.length ? 'recovery' : null;
}

/** How many recovery codes the user has left. */
export async function remainingRecoveryCodes(app: FastifyInstance, userId: string): Promise<number> {
  const rows = await app.db
    .select({ id: mfaRecoveryCodes.id })
    .from(mfaRecoveryCodes)
    .where(and(eq(mfaRecoveryCodes.userId, userId), isNull(mfaRecoveryCodes.usedAt)));
  return rows.length;
}

/** Whether the user's second factor is active. */
export async function isMfaEnabled(app: FastifyInstance, userId: string): Promise<boolean> {
  return (await mfaStateOf(app, userId)).mfaEnabled;
}

/** Turns the second factor off: secret, waiting secret, recovery codes and used steps are removed. */
export async function disableMfa(app: FastifyInstance, userId: string, who: AuditContext): Promise<void> {
  await app.db.transaction(async (tx) => {
    await recordAudit(tx, who, { action: 'staff.mfa-disable', entityId: userId, before: { mfaEnabled: true }, after: { mfaEnabled: false } });
    await tx.update(users).set({ mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null, updatedAt: app.clock.now() }).where(eq(users.id, userId));
    await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
    await tx.delete(mfaUsedSteps).where(eq(mfaUsedSteps.userId, userId));
  });
}

/** Every stored secret (active and waiting), by user and column. */
async function storedMfaSecrets(app: FastifyInstance) {
  const rows = await app.db
    .select({ id: users.id, mfaSecret: users.mfaSecret, mfaPendingSecret: users.mfaPendingSecret })
    .from(users)
    .where(or(isNotNull(users.mfaSecret), isNotNull(users.mfaPendingSecret)));
  return rows.flatMap((row) =>
    (['mfaSecret', 'mfaPendingSecret'] as const).flatMap((column) => (row[column] ? [{ userId: row.id, column, stored: row[column] }] : [])),
  );
}

const openedOrNull = (keys: MfaKeyring, userId: string, stored: string): OpenedMfaSecret | null => {
  try {
    return openMfaSecret(keys, userId, stored);
  } catch (err) {
    if (err instanceof MfaSecretUnreadableError) return null;
    throw err;
  }
};

/**
 * Start-up step: seals every TOTP secret still stored in plain text (written before encryption),
 * re-seals under the current key every secret a previous key opens (decision 082), then counts the
 * secrets still under a previous key and those no configured key opens. Idempotent, and safe with
 * several processes starting at once (each row is only replaced while it still holds the value read).
 */
export async function encryptLegacyMfaSecrets(
  app: FastifyInstance,
): Promise<{ sealed: number; resealed: number; underPreviousKey: number; unreadable: number }> {
  const keys = keyringOf(app);
  let sealed = 0;
  let resealed = 0;
  for (const { userId, column, stored } of await storedMfaSecrets(app)) {
    const opened = openedOrNull(keys, userId, stored);
    // Values of the first format under the current key stay as they are: earlier versions still
    // running during a rolling upgrade read them, and they need no previous key.
    if (!opened || opened.key === 'current') continue;
    const done = await app.db
      .update(users)
      .set({ [column]: seal(app, userId, opened.secret) })
      .where(and(eq(users.id, userId), eq(users[column], stored)))
      .returning({ id: users.id });
    if (opened.key === 'none') sealed += done.length;
    else resealed += done.length;
  }
  // Counted afresh: a row lost to another process, or written meanwhile by one still running with the
  // previous key as its current key, is only known from what the database holds now.
  let underPreviousKey = 0;
  let unreadable = 0;
  for (const { userId, stored } of await storedMfaSecrets(app)) {
    const opened = openedOrNull(keys, userId, stored);
    if (!opened) unreadable++;
    else if (opened.key === 'previous') underPreviousKey++;
  }
  return { sealed, resealed, underPreviousKey, unreadable };
}

/**
 * At start (docs/decisions/080-totp-secrets-encrypted.md): says when the public development key is
 * in use, seals the secrets older versions stored in plain text, and reports ones this key cannot
 * open. During a rotation (docs/decisions/082-rotating-the-totp-key.md) it tells the operator when
 * the previous key can go.
 */
export async function sealMfaSecretsAtStart(app: FastifyInstance): Promise<void> {
  if (app.config.mfaEncryptionKeyIsDefault && app.config.NODE_ENV !== 'test') {
    app.log.warn('MFA_ENCRYPTION_KEY is not set: TOTP secrets are encrypted with the public development key. Set your own (openssl rand -base64 32) before real use.');
  }
  const { sealed, resealed, underPreviousKey, unreadable } = await encryptLegacyMfaSecrets(app);
  if (sealed) app.log.info(`${sealed} TOTP secret(s) stored in plain text by an earlier version are now encrypted`);
  if (app.config.mfaPreviousEncryptionKeys.length) {
    const counts = `${resealed} TOTP secret(s) re-encrypted from MFA_ENCRYPTION_KEY_PREVIOUS to MFA_ENCRYPTION_KEY, ${underPreviousKey} still under a previous key, ${unreadable} that no configured key opens`;
    if (underPreviousKey) app.log.warn(`TOTP key rotation: ${counts}. Keep MFA_ENCRYPTION_KEY_PREVIOUS and restart once every process runs with the new key.`);
    else app.log.info(`TOTP key rotation: ${counts}. Nothing is left under the previous key: MFA_ENCRYPTION_KEY_PREVIOUS can be removed.`);
  }
  if (unreadable) {
    app.log.error(`${unreadable} TOTP secret(s) cannot be decrypted with MFA_ENCRYPTION_KEY or MFA_ENCRYPTION_KEY_PREVIOUS: neither is the key they were encrypted with. Those admins cannot finish signing in until the right key is configured.`);
  }
}

/** The second-factor status of an admin: on or off, recovery codes left, and whether it is required. */
export async function mfaStatus(app: FastifyInstance, userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number; required: boolean }> {
  const left = await remainingRecoveryCodes(app, userId);
  return { enabled: await isMfaEnabled(app, userId), recoveryCodesLeft: left, required: app.config.adminMfaRequired };
}
