import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../../common/errors.ts';
import type { StaffRole } from '../../../common/permissions.ts';
import { LAST_OWNER_REFUSED, STAFF_EMAIL_TAKEN, type StaffInviteBody, type StaffMember } from '../../../common/schemas/staff.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { authTokens } from '../../db/schema/auth.ts';
import { sessions, users } from '../../db/schema/users.ts';
import { publishAccountEnded } from '../../events/account-events.ts';
import { mailOutcomeOf, sendMail, type DbExecutor } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { issueLinkToken } from '../auth/link-tokens.ts';
import { staffInvitationMail, staffInvitationUrl } from './staff-mail.ts';

const UNIQUE_VIOLATION = '23505';

// The last complete sign-in: the newest session that was not left waiting for its second factor.
// The user's id is written qualified: Drizzle writes a bare "id" in a select list, which inside the
// subquery would mean the session's.
const LAST_SIGN_IN = sql<Date | null>`(select max(s.created_at) from ${sessions} s where s.user_id = "users"."id" and s.mfa_pending = false)`;

const memberColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  staffRole: users.staffRole,
  deactivatedAt: users.deactivatedAt,
  passwordHash: users.passwordHash,
  mfaEnabled: users.mfaEnabled,
  lastSignInAt: LAST_SIGN_IN,
};

type MemberRow = { id: string; name: string; email: string; staffRole: StaffRole | null; deactivatedAt: Date | null; passwordHash: string | null; mfaEnabled: boolean; lastSignInAt: Date | string | null };

const toMember = (row: MemberRow): StaffMember => ({
  _id: row.id,
  name: row.name,
  email: row.email,
  role: row.staffRole ?? 'support',
  status: row.deactivatedAt ? 'deactivated' : 'active',
  invited: !row.passwordHash,
  lastSignInAt: row.lastSignInAt ? new Date(row.lastSignInAt).toISOString() : null,
  mfaEnabled: row.mfaEnabled,
});

/** Every staff account, active first, then by name. */
export async function listStaff(app: FastifyInstance): Promise<StaffMember[]> {
  const rows = await app.db
    .select(memberColumns)
    .from(users)
    .where(eq(users.role, 'admin'))
    .orderBy(sql`${users.deactivatedAt} is not null`, asc(sql`lower(${users.name})`), asc(users.id));
  return rows.map(toMember);
}

async function memberOf(db: DbExecutor, id: string): Promise<StaffMember> {
  const [row] = await db.select(memberColumns).from(users).where(and(eq(users.id, id), eq(users.role, 'admin')));
  if (!row) throw notFound('No such staff member');
  return toMember(row);
}

/**
 * Invites a staff member with a role: an account without a password and a set-password link valid 7
 * days, e-mailed and returned. Signing in afterwards goes through the admin address list and the
 * second factor like every staff sign-in.
 */
export async function inviteStaff(app: FastifyInstance, body: StaffInviteBody, who: AuditContext) {
  const now = app.clock.now();
  const created = await app.db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ role: 'admin', staffRole: body.role, name: body.name, email: body.email, createdAt: now, updatedAt: now })
        .returning({ id: users.id });
      await recordAudit(tx, who, { action: 'staff.invite', entityId: row.id, after: { name: body.name, email: body.email, role: body.role, status: 'active' } });
      const link = await issueLinkToken(app, row.id, 'invitation', tx);
      return { id: row.id, ...link };
    })
    .catch((err: unknown) => {
      const pgError = (err as { cause?: { code?: string } }).cause ?? (err as { code?: string });
      throw pgError.code === UNIQUE_VIOLATION ? conflict(STAFF_EMAIL_TAKEN) : err;
    });
  const url = staffInvitationUrl(app, created.token);
  const { delivered } = await sendMail(app, staffInvitationMail(app, { name: body.name, email: body.email, role: body.role }, url));
  const mail: MailOutcome = mailOutcomeOf(app, delivered);
  return { member: await memberOf(app.db, created.id), url, expiresAt: created.expiresAt.toISOString(), mail };
}

/**
 * Locks the target and every active owner, in id order (so two changes cannot deadlock), and says
 * whether the target is the last active owner. Under READ COMMITTED a change waiting on these locks
 * reads the rows again once the other commits, so two concurrent demotions of the last two owners
 * cannot both see a second owner.
 */
async function lockForOwnerRule(tx: DbExecutor, id: string) {
  const { rows } = await tx.execute<{ id: string; staff_role: StaffRole; deactivated_at: Date | null }>(sql`
    select id, staff_role, deactivated_at from ${users}
    where role = 'admin' and (id = ${id} or (staff_role = 'owner' and deactivated_at is null))
    order by id for update`);
  const target = rows.find((r) => r.id === id);
  if (!target) throw notFound('No such staff member');
  const activeOwners = rows.filter((r) => r.staff_role === 'owner' && !r.deactivated_at);
  const isLastOwner = activeOwners.length === 1 && activeOwners[0].id === id;
  return { target, isLastOwner };
}

/** Changes a staff member's role; the last active owner cannot be demoted. */
export async function changeStaffRole(app: FastifyInstance, id: string, role: StaffRole, who: AuditContext): Promise<StaffMember> {
  return app.db.transaction(async (tx) => {
    const { target, isLastOwner } = await lockForOwnerRule(tx, id);
    if (isLastOwner && role !== 'owner') throw conflict(LAST_OWNER_REFUSED);
    if (target.staff_role !== role) {
      await tx.update(users).set({ staffRole: role, updatedAt: app.clock.now() }).where(eq(users.id, id));
      await recordAudit(tx, who, { action: 'staff.role', entityId: id, before: { role: target.staff_role }, after: { role } });
    }
    return memberOf(tx, id);
  });
}

/**
 * Deactivates or reactivates a staff account. Deactivating ends every session and open link of the
 * account in the same transaction and tells every process to close its live streams; the last
 * active owner cannot be deactivated (not even by themselves).
 */
export async function setStaffStatus(app: FastifyInstance, id: string, status: 'active' | 'deactivated', who: AuditContext): Promise<StaffMember> {
  return app.db.transaction(async (tx) => {
    const { target, isLastOwner } = await lockForOwnerRule(tx, id);
    const was = target.deactivated_at ? 'deactivated' : 'active';
    if (was === status) return memberOf(tx, id);
    const now = app.clock.now();
    if (status === 'deactivated') {
      if (isLastOwner) throw conflict(LAST_OWNER_REFUSED);
      await tx.update(users).set({ deactivatedAt: now, updatedAt: now }).where(eq(users.id, id));
      await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
      await tx
        .update(authTokens)
        .set({ revokedAt: now })
        .where(and(eq(authTokens.userId, id), inArray(authTokens.purpose, ['invitation', 'password-reset']), isNull(authTokens.usedAt), isNull(authTokens.revokedAt)));
      await publishAccountEnded(tx, id);
    } else {
      await tx.update(users).set({ deactivatedAt: null, updatedAt: now }).where(eq(users.id, id));
    }
    await recordAudit(tx, who, {
      action: status === 'deactivated' ? 'staff.deactivate' : 'staff.reactivate',
      entityId: id,
      before: { role: target.staff_role, status: was },
      after: { role: target.staff_role, status },
    });
    return memberOf(tx, id);
  });
}
