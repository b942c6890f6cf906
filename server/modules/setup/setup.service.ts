import { recordAudit } from '../audit/audit.ts';
import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, forbidden, notFound } from '../../../common/errors.ts';
import { PATHS } from '../../../common/paths.ts';
import { SETUP_CLOSED, SETUP_LINK_INVALID, SETUP_LINK_LIFETIME_MS, type SetupAdminBody, type SetupReader } from '../../../common/schemas/setup.ts';
import { setupLinks } from '../../db/schema/auth.ts';
import { users } from '../../db/schema/users.ts';
import { ADMIN_ADDRESS_REFUSED } from '../auth/admin-network.ts';
import { toPublicUser, type SignedIn } from '../auth/auth.service.ts';
import { assertAcceptablePassword, hashPassword } from '../auth/passwords.ts';
import { createSession, hashToken } from '../auth/sessions.service.ts';

// First-run set-up of the first admin account (docs/decisions/160-first-run-set-up-link.md).

/** Any number that is the same in every process: the lock that makes "first admin" happen once. */
const FIRST_ADMIN_LOCK = 160_001;

/** True while no admin account exists. */
export async function isSetupOpen(app: FastifyInstance): Promise<boolean> {
  const [admin] = await app.db.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
  return !admin;
}

/**
 * Writes a new set-up link when no admin exists (one per start). Earlier links of other processes
 * stay valid until their own hour ends, so two processes started together do not void each other's.
 */
export async function issueSetupLink(app: FastifyInstance): Promise<{ url: string; expiresAt: Date } | null> {
  if (!(await isSetupOpen(app))) return null;
  const now = app.clock.now();
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SETUP_LINK_LIFETIME_MS);
  await app.db.delete(setupLinks).where(lt(setupLinks.expiresAt, now));
  await app.db.insert(setupLinks).values({ tokenHash: hashToken(token), createdAt: now, expiresAt });
  return { url: `${new URL(app.config.publicUrl).origin}${PATHS.adminSetup}#token=${token}`, expiresAt };
}

const liveLink = (app: FastifyInstance, token: string) =>
  and(eq(setupLinks.tokenHash, hashToken(token)), isNull(setupLinks.usedAt), gt(setupLinks.expiresAt, app.clock.now()));

/** What the web pages may ask while rendering (the set-up page answers 404 once an admin exists). */
export function setupReader(app: FastifyInstance): SetupReader {
  return { isOpen: () => isSetupOpen(app) };
}

/** Says whether a set-up link still works (the page asks before showing the form). */
export async function inspectSetupLink(app: FastifyInstance, token: string, addressAllowed: boolean) {
  if (!addressAllowed) throw forbidden(ADMIN_ADDRESS_REFUSED);
  if (!(await isSetupOpen(app))) throw notFound(SETUP_CLOSED);
  const [row] = await app.db.select({ expiresAt: setupLinks.expiresAt }).from(setupLinks).where(liveLink(app, token)).limit(1);
  if (!row) throw notFound(SETUP_LINK_INVALID);
  return { expiresAt: row.expiresAt, mfaRequired: app.config.adminMfaRequired };
}

export interface SetupCaller {
  ip: string;
  userAgent?: string;
  addressAllowed: boolean;
}

/**
 * Creates the first admin from a set-up link and signs it in (waiting for the second factor when
 * ADMIN_MFA_REQUIRED). One transaction under an advisory lock: whichever request (of any process)
 * gets there first creates the admin and uses up every link; the others find an admin and are refused.
 */
export async function completeSetup(app: FastifyInstance, body: SetupAdminBody, caller: SetupCaller): Promise<SignedIn> {
  if (!caller.addressAllowed) throw forbidden(ADMIN_ADDRESS_REFUSED);
  assertAcceptablePassword(body.password, { email: body.email });
  const passwordHash = await hashPassword(body.password);
  const now = app.clock.now();
  const admin = await app.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`);
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'admin')).limit(1);
    if (existing) throw notFound(SETUP_CLOSED);
    const [link] = await tx.update(setupLinks).set({ usedAt: now }).where(liveLink(app, body.token)).returning({ id: setupLinks.id });
    if (!link) throw notFound(SETUP_LINK_INVALID);
    const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${body.email}`).limit(1);
    if (taken) throw conflict(`An account with the e-mail ${body.email} already exists. Use another address for the admin account.`);
    const [row] = await tx
      .insert(users)
      .values({ role: 'admin', staffRole: 'owner', name: body.name, email: body.email, passwordHash, createdAt: now, updatedAt: now })
      .returning({ id: users.id, name: users.name, role: users.role });
    await recordAudit(tx, { actorId: null, actorLabel: 'system: set-up link', address: caller.ip, at: now }, { action: 'staff.create', entityId: row.id, after: { name: body.name, email: body.email, role: 'admin', staffRole: 'owner' } });
    // Every other printed link is worthless from now on.
    await tx.update(setupLinks).set({ usedAt: now }).where(isNull(setupLinks.usedAt));
    return row;
  });
  app.log.info({ userId: admin.id }, 'first admin account created from the set-up link');
  const mfa = app.config.adminMfaRequired ? ('enrol' as const) : undefined;
  const session = await createSession(app, { userId: admin.id, role: 'admin', mfaPending: !!mfa, ip: caller.ip, userAgent: caller.userAgent });
  return { token: session.token, expiresAt: session.expiresAt, user: toPublicUser(admin), mfa };
}

/** Start-up step: prints the set-up link in one line while no admin exists (called from server/start.ts). */
export async function announceSetupLink(app: FastifyInstance, print: (line: string) => void = console.log): Promise<void> {
  const link = await issueSetupLink(app);
  if (!link) return;
  const where = app.config.ADMIN_ALLOWED_CIDRS.length ? ` from an address in ADMIN_ALLOWED_CIDRS (${app.config.ADMIN_ALLOWED_CIDRS.join(', ')})` : '';
  print(`No admin account yet. Create the first one within the hour${where}, once, at: ${link.url}`);
}
