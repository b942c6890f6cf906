import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, forbidden } from '../../../common/errors.ts';
import {
  MFA_ENROLMENT_PASSWORD_REQUIRED,
  MFA_ENROLMENT_PASSWORD_WRONG,
  MFA_NOT_ON,
  MFA_REQUIRED_CANNOT_TURN_OFF,
  MFA_TOTP_CODE_NEEDED,
  type MfaManageBody,
} from '../../../common/schemas/auth.ts';
import { users } from '../../db/schema/users.ts';
import { auditOfUser } from '../audit/audit.ts';
import { grantTrustedDevice, guardRateLimit, upgradeSession, type CallerContext, type SessionCaller, type SignedIn } from './auth.service.ts';
import { releaseLoginAttempt, settleLoginAttempt } from './login-attempts.service.ts';
import {
  checkSecondFactor,
  confirmMfaEnrolment,
  disableMfa,
  isMfaEnabled,
  MFA_ALREADY_ON,
  regenerateRecoveryCodes,
  startMfaEnrolment,
  startMfaReplacement,
  WRONG_SECOND_FACTOR,
} from './mfa.service.ts';
import { verifyPassword } from './passwords.ts';
import { revokeUserSessions } from './sessions.service.ts';

/** Second sign-in step of an admin: an authenticator code or a recovery code. */
export async function verifySecondFactor(app: FastifyInstance, caller: SessionCaller, code: string, ctx: CallerContext): Promise<SignedIn & { usedRecoveryCode: boolean }> {
  if (!caller.user.mfaPending) throw new AppError('BAD_REQUEST', 'This session is already fully signed in.');
  const attempt = await guardRateLimit(app, 'admin', caller.user.email, ctx, caller.user._id, 'wrong-second-factor');
  const kind = await checkSecondFactor(app, caller.user._id, code);
  // A wrong code leaves the reserved row as it is: 'wrong-second-factor'.
  if (!kind) throw new AppError('UNAUTHENTICATED', WRONG_SECOND_FACTOR);
  await settleLoginAttempt(app, attempt, 'success');
  const trustedDevice = await grantTrustedDevice(app, 'admin', caller.user.email, ctx);
  return { ...(await upgradeSession(app, caller.sessionId, caller.user, ctx)), usedRecoveryCode: kind === 'recovery', trustedDevice };
}

/**
 * Starts enrolment of the authenticator app. Right after the password (an admin who must enrol)
 * nothing more is asked. From a full session (an admin turning it on by choice) the password is
 * asked again: otherwise someone holding a borrowed session could tie the account to their own
 * phone, end the owner's other sessions and lock the owner out. Wrong passwords count like failed
 * sign-ins (audit and limits).
 */
export async function beginMfaEnrolment(app: FastifyInstance, caller: SessionCaller, password: string | undefined, ctx: CallerContext) {
  if (await isMfaEnabled(app, caller.user._id)) throw conflict(MFA_ALREADY_ON);
  if (!caller.user.mfaPending) {
    if (!password) {
      throw new AppError('VALIDATION_FAILED', MFA_ENROLMENT_PASSWORD_REQUIRED, [{ field: 'body.password', message: MFA_ENROLMENT_PASSWORD_REQUIRED }]);
    }
    const attempt = await guardRateLimit(app, 'admin', caller.user.email, ctx, caller.user._id, 'wrong-password');
    await checkPasswordAgain(app, caller, password);
    await releaseLoginAttempt(app, attempt);
  }
  return startMfaEnrolment(app, caller.user._id);
}

/**
 * The signed-in admin's password, typed again. Called after guardRateLimit reserved the attempt as
 * 'wrong-password', so a wrong one stays audited and counted like a failed sign-in.
 */
async function checkPasswordAgain(app: FastifyInstance, caller: SessionCaller, password: string) {
  const [user] = await app.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, caller.user._id));
  if (!(await verifyPassword(user?.passwordHash, password))) {
    throw new AppError('VALIDATION_FAILED', MFA_ENROLMENT_PASSWORD_WRONG, [{ field: 'body.password', message: MFA_ENROLMENT_PASSWORD_WRONG }]);
  }
}

/**
 * Before an active second factor is managed: the password again, then a code (an authenticator
 * code; or also a recovery code, which is then spent). Every failure counts like a failed sign-in
 * (decision 042), so a borrowed session cannot be used to guess either.
 */
async function confirmOwnerAgain(app: FastifyInstance, caller: SessionCaller, body: MfaManageBody, ctx: CallerContext, codes: 'authenticator' | 'any') {
  if (!(await isMfaEnabled(app, caller.user._id))) throw conflict(MFA_NOT_ON);
  const attempt = await guardRateLimit(app, 'admin', caller.user.email, ctx, caller.user._id, 'wrong-password');
  await checkPasswordAgain(app, caller, body.password);
  const kind = await checkSecondFactor(app, caller.user._id, body.code, { recoveryCodes: codes === 'any' });
  if (!kind) {
    await settleLoginAttempt(app, attempt, 'wrong-second-factor');
    const message = codes === 'any' ? WRONG_SECOND_FACTOR : `That code is not valid. ${MFA_TOTP_CODE_NEEDED}`;
    throw new AppError('VALIDATION_FAILED', message, [{ field: 'body.code', message }]);
  }
  await releaseLoginAttempt(app, attempt);
}

/** New recovery codes (the old ones stop working), after the password and a current authenticator code. */
export async function renewRecoveryCodes(app: FastifyInstance, caller: SessionCaller, body: MfaManageBody, ctx: CallerContext): Promise<string[]> {
  await confirmOwnerAgain(app, caller, body, ctx, 'authenticator');
  return regenerateRecoveryCodes(app, caller.user._id);
}

/**
 * A new phone: after the password and a code (authenticator or recovery), a new secret waits beside
 * the active one; confirming it (POST /auth/mfa/enrolment/confirm) swaps them and ends other sessions.
 */
export async function beginMfaReplacement(app: FastifyInstance, caller: SessionCaller, body: MfaManageBody, ctx: CallerContext) {
  await confirmOwnerAgain(app, caller, body, ctx, 'any');
  return startMfaReplacement(app, caller.user._id);
}

/** Turns the second factor off, where ADMIN_MFA_REQUIRED allows it, after the password and a code. */
export async function turnOffMfa(app: FastifyInstance, caller: SessionCaller, body: MfaManageBody, ctx: CallerContext) {
  // Refused before anything is checked, so no recovery code is spent on a request that cannot succeed.
  if (app.config.adminMfaRequired) throw forbidden(MFA_REQUIRED_CANNOT_TURN_OFF);
  await confirmOwnerAgain(app, caller, body, ctx, 'any');
  await disableMfa(app, caller.user._id, auditOfUser(caller.user, ctx.ip, app.clock.now()));
}

/** Ends enrolment of the authenticator app; a pending sign-in becomes a full one. */
export async function finishMfaEnrolment(app: FastifyInstance, caller: SessionCaller, code: string, ctx: CallerContext): Promise<SignedIn & { recoveryCodes: string[] }> {
  const attempt = await guardRateLimit(app, 'admin', caller.user.email, ctx, caller.user._id, 'wrong-second-factor');
  // A new phone is set up only from a full session (the replacement checked password and code).
  const recoveryCodes = await confirmMfaEnrolment(app, caller.user._id, code, { replacing: !caller.user.mfaPending }, auditOfUser(caller.user, ctx.ip, app.clock.now()));
  if (!recoveryCodes) {
    throw new AppError('UNAUTHENTICATED', 'That code is not valid. Check the time on your phone and enter the current 6-digit code.');
  }
  if (caller.user.mfaPending) await settleLoginAttempt(app, attempt, 'success');
  else await releaseLoginAttempt(app, attempt);
  // Other sessions were opened without the second factor; from now on every session has it.
  await revokeUserSessions(app, caller.user._id, caller.sessionId);
  return { ...(await upgradeSession(app, caller.sessionId, caller.user, ctx)), recoveryCodes };
}
