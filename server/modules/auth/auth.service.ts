import argon2 from 'argon2';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, forbidden } from '../../../common/errors.ts';
import {
  ADMIN_LOGIN_FAILED,
  ADMIN_WRONG_CREDENTIALS,
  ACCOUNT_ARCHIVED,
  ACCOUNT_DEACTIVATED,
  CLIENT_LOGIN_FAILED,
  type MfaStep,
  type PublicUser,
} from '../../../common/schemas/auth.ts';
import { toStorableText } from '../../../common/schemas/text.ts';
import type { LoginPortal, LoginResult } from '../../db/schema/auth.ts';
import { users, type UserRole } from '../../db/schema/users.ts';
import { ADMIN_ADDRESS_REFUSED } from './admin-network.ts';
import { rateLimitMessage, recordLoginAttempt, reserveLoginAttempt, settleLoginAttempt, type ReservedAttempt } from './login-attempts.service.ts';
import { ARGON2_OPTIONS, hashPassword, verifyPassword } from './passwords.ts';
import { createSession, revokeSession } from './sessions.service.ts';
import { trustedDeviceCookie, trustedDeviceOf, type TrustedDeviceGrant } from './trusted-device.ts';

// Signing in: the password step of both portals, the limits and trusted devices every step shares,
// and the session a finished sign-in gets. The second-factor steps are in auth-mfa.service.ts, the
// password changes and reset links in password-changes.service.ts.

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

/**
 * Checks the limits and, in the same atomic step, counts this attempt as a failure (`provisional`)
 * until the caller settles it (decision 110); refuses with 429 past the limits.
 */
export async function guardRateLimit(
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
export async function grantTrustedDevice(app: FastifyInstance, portal: LoginPortal, account: string, ctx: CallerContext): Promise<TrustedDeviceGrant> {
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
export async function upgradeSession(app: FastifyInstance, sessionId: string, user: { _id: string; name: string; role: UserRole }, ctx: CallerContext): Promise<SignedIn> {
  await revokeSession(app, sessionId);
  const session = await createSession(app, { userId: user._id, role: user.role, ip: ctx.ip, userAgent: ctx.userAgent });
  return { token: session.token, expiresAt: session.expiresAt, user: { _id: user._id, name: user.name, role: user.role } };
}

/** A signed-in session as the second-factor steps need it. */
export interface SessionCaller {
  sessionId: string;
  user: { _id: string; name: string; role: UserRole; email: string; mfaPending: boolean };
}
