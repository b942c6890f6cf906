import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { AppError, conflict, forbidden, notFound } from '../../../common/errors.ts';
import { ADMIN_ADDRESS_REFUSED } from './admin-network.ts';
import { USERNAME_RULE } from '../../../common/schemas/auth.ts';
import { PATHS } from '../../../common/paths.ts';
import { users } from '../../db/schema/users.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { mailDocument } from '../../mail/layout.ts';
import { escapeHtml, mailOutcomeOf, sendMail, type MailInput } from '../../mail/mailer.ts';
import { assertAcceptablePassword, hashPassword } from './passwords.ts';
import { consumeLinkToken, findLiveLinkToken, issueLinkToken, liveLinkOf, revokeLinkTokens } from './link-tokens.ts';
import { revokeUserSessions } from './sessions.service.ts';
import { publishedCompany } from '../site-content/published-company.ts';

const INVALID_INVITATION = 'This invitation link is no longer valid. It may have expired, been replaced by a newer one or already been used. Please ask us for a new one.';

/** The set-password link; the token travels in the fragment, so it never reaches a server log. */
function invitationUrl(app: FastifyInstance, token: string): string {
  return `${new URL(app.config.publicUrl).origin}${PATHS.setPassword}#token=${token}`;
}

function slug(value: string): string {
  return value
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9._-]+/g, '.')
    .replace(/[._-]{2,}/g, '.')
    .replace(/^[._-]+|[._-]+$/g, '');
}

/** True when no user has this username (case-insensitive). */
export async function isUsernameFree(app: FastifyInstance, username: string, exceptUserId?: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return !row || row.id === exceptUserId;
}

/**
 * A username nobody has yet, built from the wanted one (or the name, or the e-mail's local part):
 * `ada.okafor`, then `ada.okafor2`, `ada.okafor3`, ... Staff may still edit it afterwards.
 */
export async function generateUniqueUsername(app: FastifyInstance, input: { wanted?: string; name?: string; email?: string }): Promise<string> {
  const candidates = [input.wanted, input.name, input.email?.split('@')[0]].map((v) => (v ? slug(v).slice(0, 36) : ''));
  let base = candidates.find((c) => c.length >= 3) ?? '';
  if (!/^[a-z0-9]/.test(base)) base = `client${base ? `.${base}` : ''}`.slice(0, 36);
  if (base.length < 3) base = 'client';
  const taken = await app.db
    .select({ username: users.username })
    .from(users)
    .where(sql`lower(${users.username}) = ${base} OR lower(${users.username}) ~ ${`^${base.replace(/[.]/g, '\\.')}[0-9]+$`}`);
  const names = new Set(taken.map((r) => r.username?.toLowerCase()));
  if (!names.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}${n}`;
    if (!names.has(candidate) && USERNAME_RULE.test(candidate)) return candidate;
  }
}

async function clientOf(app: FastifyInstance, userId: string) {
  const [user] = await app.db
    .select({ id: users.id, name: users.name, email: users.email, username: users.username, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.role, 'client')))
    .limit(1);
  if (!user) throw notFound('No such client');
  return user;
}

/** The invitation mail with the link to choose a password: its text, and its HTML as a whole document. */
export function invitationMail(app: FastifyInstance, user: { name: string; email: string; username: string | null }, url: string): MailInput {
  const company = publishedCompany(app);
  const days = 7;
  const subject = `Your ${company.shortName} client portal account`;
  return {
    to: user.email,
    kind: 'invitation',
    subject,
    text: [
      `Hello ${user.name},`,
      '',
      `${company.name} has opened a client portal account for you, where you can follow your projects, read progress reports and message our team.`,
      '',
      `Your username: ${user.username ?? '(ask us)'}`,
      '',
      `Choose your password with this link (valid for ${days} days, usable once):`,
      url,
      '',
      'If you did not expect this e-mail, you can ignore it.',
    ].join('\n'),
    html: mailDocument(
      subject,
      `<p>Hello ${escapeHtml(user.name)},</p><p>${escapeHtml(company.name)} has opened a client portal account for you, where you can follow your projects, read progress reports and message our team.</p><p>Your username: <strong>${escapeHtml(user.username ?? '(ask us)')}</strong></p><p><a href="${escapeHtml(url)}">Choose your password</a> (valid for ${days} days, usable once).</p><p>If you did not expect this e-mail, you can ignore it.</p>`,
    ),
  };
}

/**
 * Issues a client's invitation: a link valid 7 days to choose a password, e-mailed to the client
 * and returned so staff can copy it. A new invitation replaces any earlier unused one. Refused
 * (409) once the client has a password: they use 'Forgot password?' instead.
 */
export async function createClientInvitation(
  app: FastifyInstance,
  input: { userId: string },
): Promise<{ url: string; expiresAt: Date; mail: MailOutcome }> {
  const user = await clientOf(app, input.userId);
  if (user.passwordHash) throw conflict('This client has already set a password; they can use "Forgot password?" on the login screen.');
  const { token, expiresAt } = await issueLinkToken(app, user.id, 'invitation');
  const url = invitationUrl(app, token);
  const { delivered } = await sendMail(app, invitationMail(app, user, url));
  return { url, expiresAt, mail: mailOutcomeOf(app, delivered) };
}

/** Stops a client's pending invitation link from working; returns whether one was live. */
export async function revokeClientInvitation(app: FastifyInstance, input: { userId: string }): Promise<{ revoked: boolean }> {
  const user = await clientOf(app, input.userId);
  return { revoked: (await revokeLinkTokens(app, user.id, 'invitation')) > 0 };
}

/** Where a client's invitation stands, for the staff screens. */
export async function invitationStatus(
  app: FastifyInstance,
  input: { userId: string },
): Promise<{ status: 'pending' | 'accepted' | 'none'; expiresAt: Date | null }> {
  const user = await clientOf(app, input.userId);
  if (user.passwordHash) return { status: 'accepted', expiresAt: null };
  const live = await liveLinkOf(app, user.id, 'invitation');
  return live ? { status: 'pending', expiresAt: live.expiresAt } : { status: 'none', expiresAt: null };
}

/** What the set-password page shows before the client types a password. */
export async function inspectInvitation(app: FastifyInstance, token: string) {
  const row = await findLiveLinkToken(app, token, 'invitation');
  if (!row) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  const [user] = await app.db.select({ name: users.name, username: users.username }).from(users).where(eq(users.id, row.userId));
  if (!user) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  return { name: user.name, username: user.username, expiresAt: row.expiresAt };
}

/** Sets the client's first password through the invitation link (single use). */
export async function acceptInvitation(app: FastifyInstance, input: { token: string; password: string }, ctx: { adminAddressAllowed: boolean }) {
  const row = await findLiveLinkToken(app, input.token, 'invitation');
  if (!row) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  const [user] = await app.db.select().from(users).where(eq(users.id, row.userId));
  if (!user || user.deactivatedAt) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  // An invited staff member sets the password from where staff may sign in, as a reset does (decision 275).
  if (user.role === 'admin' && !ctx.adminAddressAllowed) throw forbidden(ADMIN_ADDRESS_REFUSED);
  assertAcceptablePassword(input.password, user);
  const passwordHash = await hashPassword(input.password);
  const done = await app.db.transaction(async (tx) => {
    const used = await consumeLinkToken(app, tx, input.token, 'invitation');
    if (!used) return false;
    await tx.update(users).set({ passwordHash, updatedAt: app.clock.now() }).where(eq(users.id, user.id));
    return true;
  });
  if (!done) throw new AppError('NOT_FOUND', INVALID_INVITATION);
  await revokeUserSessions(app, user.id);
  return { role: user.role, username: user.username };
}
