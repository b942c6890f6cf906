import { createHash, randomInt } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { AppError, conflict } from '../../../common/errors.ts';
import { company } from '../../../app/content/company.ts';
import { mfaRecoveryCodes, mfaUsedSteps } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { base32Decode, generateTotpSecret, matchTotp, otpauthUrl } from './totp.ts';

export const RECOVERY_CODE_COUNT = 10;
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
    .select({ email: users.email, mfaSecret: users.mfaSecret, mfaEnabled: users.mfaEnabled })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue');
  return user;
}

/**
 * Starts enrolment of an authenticator app: a new secret is kept (not yet active) and returned with
 * its QR code. Refused once a second factor is active, so a stolen password cannot replace it.
 */
export async function startMfaEnrolment(app: FastifyInstance, userId: string) {
  const state = await mfaStateOf(app, userId);
  if (state.mfaEnabled) throw conflict(MFA_ALREADY_ON);
  const secret = generateTotpSecret();
  await app.db.update(users).set({ mfaSecret: secret, updatedAt: app.clock.now() }).where(eq(users.id, userId));
  const url = otpauthUrl({ issuer: company.shortName, account: state.email, secret });
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUrl: url, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/** Accepts an authenticator code once: a code already used (same time step) is refused. */
async function acceptTotp(app: FastifyInstance, userId: string, secret: string, code: string): Promise<boolean> {
  const step = matchTotp(base32Decode(secret), code, app.clock.now().getTime());
  if (step === null) return false;
  const inserted = await app.db
    .insert(mfaUsedSteps)
    .values({ userId, step, usedAt: app.clock.now() })
    .onConflictDoNothing()
    .returning({ step: mfaUsedSteps.step });
  return inserted.length === 1;
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

/** Finishes enrolment with a first code from the app; turns the second factor on and returns recovery codes. */
export async function confirmMfaEnrolment(app: FastifyInstance, userId: string, code: string): Promise<string[] | null> {
  const state = await mfaStateOf(app, userId);
  if (state.mfaEnabled) throw conflict(MFA_ALREADY_ON);
  if (!state.mfaSecret) throw new AppError('BAD_REQUEST', 'Start the set-up first: scan the QR code, then enter a code.');
  if (!(await acceptTotp(app, userId, state.mfaSecret, code))) return null;
  await app.db.update(users).set({ mfaEnabled: true, updatedAt: app.clock.now() }).where(eq(users.id, userId));
  return regenerateRecoveryCodes(app, userId);
}

/** Checks a second-factor code: a current authenticator code, or an unused recovery code (then spent). */
export async function checkSecondFactor(app: FastifyInstance, userId: string, code: string): Promise<'totp' | 'recovery' | null> {
  const state = await mfaStateOf(app, userId);
  if (!state.mfaEnabled || !state.mfaSecret) return null;
  if (/^\d{6}$/.test(code)) return (await acceptTotp(app, userId, state.mfaSecret, code)) ? 'totp' : null;
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
