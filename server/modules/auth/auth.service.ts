import { auditOfUser, recordAudit, type AuditContext } from '../audit/audit.ts';
import argon2 from 'argon2';
import { and, eq, gt, count, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, forbidden } from '../../../common/errors.ts';
import {
  ADMIN_LOGIN_FAILED,
  ADMIN_WRONG_CREDENTIALS,
  ACCOUNT_ARCHIVED,
  ACCOUNT_DEACTIVATED,
  CLIENT_LOGIN_FAILED,
  MFA_ENROLMENT_PASSWORD_REQUIRED,
  MFA_ENROLMENT_PASSWORD_WRONG,
  MFA_NOT_ON,
  MFA_REQUIRED_CANNOT_TURN_OFF,
  MFA_TOTP_CODE_NEEDED,
  type MfaManageBody,
  type MfaStep,
  type PublicUser,
} from '../../../common/schemas/auth.ts';
import { toStorableText } from '../../../common/schemas/text.ts';
import { PATHS } from '../../../common/paths.ts';
import { authTokens, type LoginPortal, type LoginResult } from '../../db/schema/auth.ts';
import { users, type UserRole } from '../../db/schema/users.ts';
import { mailDocument } from '../../mail/layout.ts';
import { escapeHtml, sendMail, type MailInput } from '../../mail/mailer.ts';
import { mayMailTypedAddress } from '../../mail/typed-address.ts';
import { ADMIN_ADDRESS_REFUSED } from './admin-network.ts';
import { consumeLinkToken, findLiveLinkToken, issueLinkToken, LINK_LIFETIME_MS, revokeLinkTokens } from './link-tokens.ts';
import { rateLimitMessage, recordLoginAttempt, releaseLoginAttempt, reserveLoginAttempt, settleLoginAttempt, type ReservedAttempt } from './login-attempts.service.ts';
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
import { ARGON2_OPTIONS, assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.ts';
import { createSession, revokeSession, revokeUserSessions } from './sessions.service.ts';
import { trustedDeviceCookie, trustedDeviceOf, type TrustedDeviceGrant } from './trusted-device.ts';
import { publishedCompany } from '../site-content/published-company.ts';

/** Who is asking, as far as the audit and the limits care. */
export interface CallerContext {
  ip: string;
  userAgent?: string;
  /** False when the admin network ranges refuse this caller. */
  adminAddressAllowed: boolean;
  /** The trusted-device cookies the browser sent, per portal (decision 192). */
  trustedDevices?: Partial<Record<LoginPortal, string>>;
}

export interface SignedIn {
  token: string;
  expiresAt: Date;
  user: PublicUser;
  mfa?: MfaStep;
  /** Set once the sign-in is complete: the route gives the browser this trusted-device cookie. */
  trustedDevice?: TrustedDeviceGrant;
}

/** A 429 that carries how long to wait, for the Retry-After header. */
export class LoginRateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', rateLimitMessage(retryAfterSeconds), { retryAfterSeconds });
  }
}

export const toPublicUser = (u: { id: string; name: string; role: UserRole }): PublicUser => ({ _id: u.id, name: u.name, role: u.role });

const INVALID_RESET_LINK = 'This password reset link is no longer valid. It may have expired (links last 1 hour) or already been used. Please ask for a new one.';
// A mailbox should not be flooded by someone typing its address again and again.
const RESET_MAILS_PER_HOUR = 3;

/**
 * Checks the limits and, in the same atomic step, counts this attempt as a failure (`provisional`)
 * until the caller settles it (decision 110); refuses with 429 past the limits.
 */
async function guardRateLimit(
  app: FastifyInstance,
  portal: LoginPortal,
  account: string,
  ctx: CallerContext,
  userId: string | null | undefined,
  provisional: LoginResult,
): Promise<ReservedAttempt> {
  const device = await trustedDeviceOf(app, portal, account, ctx.trustedDevices?.[portal]);
  const verdict = await reserveLoginAttempt(app, { ip: ctx.ip, portal, account, userId, userAgent: ctx.userAgent, provisional, device });
  if (verdict.limited) throw new LoginRateLimitedError(verdict.retryAfterSeconds);
  return verdict.attempt;
}

/** The trusted-device cookie a complete sign-in gives the browser (its device id kept when it had one). */
async function grantTrustedDevice(app: FastifyInstance, portal: LoginPortal, account: string, ctx: CallerContext): Promise<TrustedDeviceGrant> {
  const id = await trustedDeviceOf(app, portal, account, ctx.trustedDevices?.[portal]);
  return { portal, value: await trustedDeviceCookie(app, portal, account, id) };
}

/**
 * A sign-in step refused before it ran because its text cannot be stored (NUL, lone surrogate:
 * decision 111) still counts as a failed attempt of the account typed (shown with U+FFFD in place of
 * the bad characters); past the limits it is refused with 429 instead.
 */
export async function countRefusedSignIn(
  app: FastifyInstance,
  input: { portal: LoginPortal; account: string; userId?: string | null; provisional: LoginResult },
  ctx: CallerContext,
): Promise<void> {
  await guardRateLimit(app, input.portal, toStorableText(input.account), ctx, input.userId ?? null, input.provisional);
}

async function passwordLogin(
  app: FastifyInstance,
  input: { portal: LoginPortal; account: string; password: string; failMessage: string; wrongMessage?: string },
  ctx: CallerContext,
): Promise<SignedIn> {
  const { portal, account } = input;
  const attempt = await guardRateLimit(app, portal, account, ctx, null, 'wrong-password');
  const key = account.trim().toLowerCase();
  const [user] = await app.db
    .select()
    .from(users)
    .where(
      // Admins: any account with the address (addresses are unique), so a right password of a non-admin
      // account is told apart from a mistyped one below, with the same work either way.
      portal === 'admin' ? sql`lower(${users.email}) = ${key}` : and(eq(users.role, 'client'), sql`lower(${users.username}) = ${key}`),
    )
    .limit(1);
  // Unknown account, no password yet, wrong password: the same work, the same answer.
  const ok = await verifyPassword(user?.passwordHash, input.password);
  const wrongPortal = portal === 'admin' && user !== undefined && user.role !== 'admin';
  if (!user || !user.passwordHash || !ok || wrongPortal) {
    const result: LoginResult = !user || wrongPortal ? 'unknown-account' : !user.passwordHash ? 'password-not-set' : 'wrong-password';
    await settleLoginAttempt(app, attempt, result, user?.id ?? null);
    // A right password that still cannot sign in here is not a typing mistake: the specification's words.
    throw new AppError('UNAUTHENTICATED', wrongPortal && ok ? input.failMessage : (input.wrongMessage ?? input.failMessage));
  }
  // Only a right password learns that the account is archived; a guess gets the usual answer (decision 247).
  if (user.archivedAt) {
    await settleLoginAttempt(app, attempt, 'archived-account', user.id);
    throw new AppError('UNAUTHENTICATED', ACCOUNT_ARCHIVED);
  }
  if (user.deactivatedAt) {
    await settleLoginAttempt(app, attempt, 'deactivated-account', user.id);
    throw new AppError('UNAUTHENTICATED', ACCOUNT_DEACTIVATED);
  }
  if (argon2.needsRehash(user.passwordHash, ARGON2_OPTIONS)) {
    await app.db.update(users).set({ passwordHash: await hashPassword(input.password) }).where(eq(users.id, user.id));
  }
  const mfa: MfaStep | undefined =
    user.role !== 'admin' ? undefined : user.mfaEnabled ? 'verify' : app.config.adminMfaRequired ? 'enrol' : undefined;
  await settleLoginAttempt(app, attempt, mfa ? 'mfa-pending' : 'success', user.id);
  const session = await createSession(app, { userId: user.id, role: user.role, mfaPending: !!mfa, ip: ctx.ip, userAgent: ctx.userAgent });
  // Trusted only once fully signed in: the password alone must not lift the limit on second-factor guesses.
  const trustedDevice = mfa ? undefined : await grantTrustedDevice(app, portal, account, ctx);
  return { token: session.token, expiresAt: session.expiresAt, user: toPublicUser(user), mfa, trustedDevice };
}

/** POST /auth/login: a client signs in with username and password. */
export function signInClient(app: FastifyInstance, body: { username: string; password: string }, ctx: CallerContext) {
  return passwordLogin(app, { portal: 'client', account: body.username, password: body.password, failMessage: CLIENT_LOGIN_FAILED }, ctx);
}

/** POST /auth/adminlogin: an admin signs in with e-mail and password, only from the allowed networks. */
export async function signInAdmin(app: FastifyInstance, body: { email: string; password: string }, ctx: CallerContext) {
  if (!ctx.adminAddressAllowed) {
    await recordLoginAttempt(app, { ip: ctx.ip, portal: 'admin', account: body.email, result: 'blocked-address', userAgent: ctx.userAgent });
    throw forbidden(ADMIN_ADDRESS_REFUSED);
  }
  return passwordLogin(
    app,
    { portal: 'admin', account: body.email, password: body.password, failMessage: ADMIN_LOGIN_FAILED, wrongMessage: ADMIN_WRONG_CREDENTIALS },
    ctx,
  );
}

/** Swaps a session waiting for its second factor for a full one (a new token, so the old one is worthless). */
async function upgradeSession(app: FastifyInstance, sessionId: string, user: { _id: string; name: string; role: UserRole }, ctx: CallerContext): Promise<SignedIn> {
  await revokeSession(app, sessionId);
  const session = await createSession(app, { userId: user._id, role: user.role, ip: ctx.ip, userAgent: ctx.userAgent });
  return { token: session.token, expiresAt: session.expiresAt, user: { _id: user._id, name: user.name, role: user.role } };
}

interface SessionCaller {
  sessionId: string;
  user: { _id: string; name: string; role: UserRole; email: string; mfaPending: boolean };
}

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

/** A signed-in user changes their password; every other session of theirs ends. */
export async function changePassword(app: FastifyInstance, caller: { sessionId: string; userId: string }, body: { currentPassword: string; newPassword: string }, who: AuditContext) {
  const [user] = await app.db.select().from(users).where(eq(users.id, caller.userId));
  if (!user) throw new AppError('UNAUTHENTICATED', 'Please sign in to continue');
  if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
    throw new AppError('VALIDATION_FAILED', 'The current password is not correct.', [{ field: 'body.currentPassword', message: 'The current password is not correct.' }]);
  }
  if (body.currentPassword === body.newPassword) throw new AppError('VALIDATION_FAILED', 'The new password must be different from the current one.');
  assertAcceptablePassword(body.newPassword, user);
  const passwordHash = await hashPassword(body.newPassword);
  await app.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: app.clock.now() }).where(eq(users.id, user.id));
    await recordAudit(tx, who, { action: `${user.role === 'admin' ? 'staff' : 'client'}.password`, entityId: user.id, before: { passwordHash: user.passwordHash }, after: { passwordHash } });
  });
  await revokeUserSessions(app, user.id, caller.sessionId);
  await revokeLinkTokens(app, user.id, 'password-reset');
}

/** The reset link; the token travels in the fragment, so it never reaches a server log. */
function resetUrl(app: FastifyInstance, token: string) {
  return `${new URL(app.config.publicUrl).origin}${PATHS.resetPassword}#token=${token}`;
}

/** The mail with a password-reset link: its text, and its HTML as a whole document. */
export function passwordResetMail(app: FastifyInstance, user: { name: string; email: string; role: UserRole; username: string | null }, url: string): MailInput {
  const company = publishedCompany(app);
  const subject = `Reset your ${company.shortName} password`;
  const minutes = LINK_LIFETIME_MS['password-reset'] / 60_000;
  const login = user.role === 'client' ? `Your username is ${user.username}.` : 'Sign in with this e-mail address.';
  return {
    to: user.email,
    kind: 'password-reset',
    subject,
    text: [
      `Hello ${user.name},`,
      '',
      'Someone (we hope you) asked to reset the password of your account.',
      `Choose a new password with this link (valid for ${minutes} minutes, usable once):`,
      url,
      '',
      login,
      'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    ].join('\n'),
    html: mailDocument(subject, `<p>Hello ${escapeHtml(user.name)},</p><p>Someone (we hope you) asked to reset the password of your account.</p><p><a href="${escapeHtml(url)}">Choose a new password</a> (valid for ${minutes} minutes, usable once).</p><p>${escapeHtml(login)}</p><p>If you did not ask for this, ignore this e-mail: your password stays as it is.</p>`),
  };
}

/**
 * 'Forgot password?': mails a reset link valid 1 hour when an account matches (username or e-mail
 * of a client, e-mail of an admin). The caller answers the same whatever happens here.
 */
export async function requestPasswordReset(app: FastifyInstance, identifier: string): Promise<void> {
  const key = identifier.trim().toLowerCase();
  const matches = await app.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${key} OR (${users.role} = 'client' AND lower(${users.username}) = ${key})`)
    .limit(2);
  // An e-mail shared by two accounts is ambiguous; the username is not, so prefer that match.
  const user = matches.length === 1 ? matches[0] : matches.find((u) => u.username?.toLowerCase() === key);
  // A deactivated account gets no link: a new password must not become a way back in (decision 275).
  if (!user || user.deactivatedAt) return;
  const hourAgo = new Date(app.clock.now().getTime() - 60 * 60_000);
  // Count and issue under a per-user lock, so a burst of requests cannot slip past the limit.
  const issued = await app.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`password-reset:${user.id}`}))`);
    const [{ recent }] = await tx
      .select({ recent: count() })
      .from(authTokens)
      .where(and(eq(authTokens.userId, user.id), eq(authTokens.purpose, 'password-reset'), gt(authTokens.createdAt, hourAgo)));
    if (recent >= RESET_MAILS_PER_HOUR) return null;
    // Anyone can type the account's name: a few mails a day at most (decision 190).
    if (!(await mayMailTypedAddress(app, 'password-reset', user.email, tx))) return null;
    return issueLinkToken(app, user.id, 'password-reset', tx);
  });
  if (!issued) return;
  const { token } = issued;
  await sendMail(app, passwordResetMail(app, user, resetUrl(app, token)));
}

/** Sets a new password through a reset link (single use); every session of the user ends. */
/** When a reset link expires, while it is live; otherwise not found (the page says so when it opens). */
export async function inspectResetLink(app: FastifyInstance, token: string): Promise<{ expiresAt: Date }> {
  const row = await findLiveLinkToken(app, token, 'password-reset');
  if (!row) throw new AppError('NOT_FOUND', INVALID_RESET_LINK);
  return { expiresAt: row.expiresAt };
}

export async function resetPassword(app: FastifyInstance, body: { token: string; password: string }, ctx: CallerContext) {
  const row = await findLiveLinkToken(app, body.token, 'password-reset');
  if (!row) throw new AppError('NOT_FOUND', INVALID_RESET_LINK);
  const [user] = await app.db.select().from(users).where(eq(users.id, row.userId));
  if (!user || user.deactivatedAt) throw new AppError('NOT_FOUND', INVALID_RESET_LINK);
  if (user.role === 'admin' && !ctx.adminAddressAllowed) throw forbidden(ADMIN_ADDRESS_REFUSED);
  assertAcceptablePassword(body.password, user);
  const passwordHash = await hashPassword(body.password);
  const done = await app.db.transaction(async (tx) => {
    if (!(await consumeLinkToken(app, tx, body.token, 'password-reset'))) return false;
    await tx.update(users).set({ passwordHash, updatedAt: app.clock.now() }).where(eq(users.id, user.id));
    return true;
  });
  if (!done) throw new AppError('NOT_FOUND', INVALID_RESET_LINK);
  await revokeUserSessions(app, user.id);
  // An invitation still open is pointless once a password exists.
  await revokeLinkTokens(app, user.id, 'invitation');
  // The link came from the account's mailbox: this browser may sign in even while the account is
  // under the limit because of guesses from elsewhere (decision 192).
  const portal: LoginPortal = user.role === 'admin' ? 'admin' : 'client';
  const trustedDevice = await grantTrustedDevice(app, portal, portal === 'admin' ? user.email : (user.username ?? user.email), ctx);
  return { role: user.role, username: user.username, trustedDevice };
}
