import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, forbidden } from '../../../common/errors.ts';
import { PATHS } from '../../../common/paths.ts';
import { authTokens, type LoginPortal } from '../../db/schema/auth.ts';
import { users, type UserRole } from '../../db/schema/users.ts';
import { mailDocument } from '../../mail/layout.ts';
import { escapeHtml, sendMail, type MailInput } from '../../mail/mailer.ts';
import { mayMailTypedAddress } from '../../mail/typed-address.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { publishedCompany } from '../site-content/published-company.ts';
import { ADMIN_ADDRESS_REFUSED } from './admin-network.ts';
import { grantTrustedDevice, type CallerContext } from './auth.service.ts';
import { consumeLinkToken, findLiveLinkToken, issueLinkToken, LINK_LIFETIME_MS, revokeLinkTokens } from './link-tokens.ts';
import { assertAcceptablePassword, hashPassword, verifyPassword } from './passwords.ts';
import { revokeUserSessions } from './sessions.service.ts';

const INVALID_RESET_LINK = 'This password reset link is no longer valid. It may have expired (links last 1 hour) or already been used. Please ask for a new one.';
// A mailbox should not be flooded by someone typing its address again and again.
const RESET_MAILS_PER_HOUR = 3;

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

/** When a reset link expires, while it is live; otherwise not found (the page says so when it opens). */
export async function inspectResetLink(app: FastifyInstance, token: string): Promise<{ expiresAt: Date }> {
  const row = await findLiveLinkToken(app, token, 'password-reset');
  if (!row) throw new AppError('NOT_FOUND', INVALID_RESET_LINK);
  return { expiresAt: row.expiresAt };
}

/** Sets a new password through a reset link (single use); every session of the user ends. */
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
