import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { badRequest, conflict, notFound } from '../../../common/errors.ts';
import type { MemberRole } from '../../../common/permissions.ts';
import { ORGANISATION_TEXTS, type Member, type MemberListResponse } from '../../../common/schemas/organisation.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { authTokens } from '../../db/schema/auth.ts';
import { projectMemberLimits, projects } from '../../db/schema/projects.ts';
import { sessions, users } from '../../db/schema/users.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { createClientInvitation, generateUniqueUsername } from '../auth/invitations.service.ts';
import { CLIENT_ARCHIVED, lockWritableClient } from '../projects/project-locks.ts';
import { IS_CLIENT_ACCOUNT, personOf } from './client-scope.ts';

const UNIQUE_VIOLATION = '23505';

/** A live (not removed) member of the organisation. */
const liveMemberOf = (organisationId: string) => and(eq(users.organisationId, organisationId), eq(users.role, 'client'), isNull(users.removedAt));

// Qualified: in a select list Drizzle writes a bare "id", which inside these subqueries would mean the token's own id.
const USER_ID = sql.raw('"users"."id"');

const memberColumnsAt = (now: Date) => ({
  id: users.id,
  name: users.name,
  email: users.email,
  username: users.username,
  memberRole: users.memberRole,
  organisationId: users.organisationId,
  hasPassword: sql<boolean>`(${users.passwordHash} is not null)`.mapWith(Boolean),
  invitationLive: sql<boolean>`exists (select 1 from ${authTokens} t where t.user_id = ${USER_ID} and t.purpose = 'invitation'
    and t.used_at is null and t.revoked_at is null and t.expires_at > ${now.toISOString()}::timestamptz)`.mapWith(Boolean),
  projectIds: sql<string[]>`coalesce((select array_agg(l.project_id::text order by l.project_id) from ${projectMemberLimits} l where l.user_id = ${USER_ID}), '{}')`,
});
type MemberRow = { id: string; name: string; email: string; username: string | null; memberRole: MemberRole | null; organisationId: string | null; hasPassword: boolean; invitationLive: boolean; projectIds: string[] };

function toMember(row: MemberRow): Member {
  return {
    ...personOf(row),
    memberRole: row.memberRole ?? 'member',
    projectIds: row.projectIds,
    invitation: row.hasPassword ? 'accepted' : row.invitationLive ? 'pending' : 'none',
    founder: row.id === row.organisationId,
  };
}

/** The organisation of a Client, for staff: 404 when there is none (same words as the client routes). */
export async function assertOrganisation(app: FastifyInstance, id: string): Promise<string> {
  const [row] = await app.db.select({ id: users.id }).from(users).where(and(eq(users.id, id), eq(users.role, 'client'), IS_CLIENT_ACCOUNT));
  if (!row) throw notFound('Client not found');
  return row.id;
}

/** The organisation's live members, admins first, and its projects (for the limit checkboxes). */
export async function listMembers(app: FastifyInstance, organisationId: string): Promise<Omit<MemberListResponse, 'success'>> {
  const rows = await app.db
    .select(memberColumnsAt(app.clock.now()))
    .from(users)
    .where(liveMemberOf(organisationId))
    .orderBy(sql`${users.memberRole} <> 'admin'`, asc(sql`lower(${users.name})`), users.id);
  const projectRows = await app.db
    .select({ _id: projects.id, name: projects.name, code: projects.code })
    .from(projects)
    .where(and(eq(projects.clientId, organisationId), isNull(projects.archivedAt)))
    .orderBy(asc(sql`lower(${projects.name})`), projects.id);
  return { members: rows.map(toMember), projects: projectRows };
}

async function findMember(app: FastifyInstance, organisationId: string, id: string): Promise<Member> {
  const [row] = await app.db
    .select(memberColumnsAt(app.clock.now()))
    .from(users)
    .where(and(eq(users.id, id), liveMemberOf(organisationId)));
  if (!row) throw notFound(ORGANISATION_TEXTS.notFound);
  return toMember(row);
}

/** Refuses (400, nothing stored) a limit naming a project that is not the organisation's. */
async function assertOwnProjects(tx: DbExecutor, organisationId: string, projectIds: string[]): Promise<void> {
  if (projectIds.length === 0) return;
  const own = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.clientId, organisationId), inArray(projects.id, projectIds)));
  if (own.length !== projectIds.length) throw badRequest(ORGANISATION_TEXTS.foreignProject);
}

async function setLimits(tx: DbExecutor, userId: string, projectIds: string[]): Promise<void> {
  await tx.delete(projectMemberLimits).where(eq(projectMemberLimits.userId, userId));
  if (projectIds.length > 0) await tx.insert(projectMemberLimits).values(projectIds.map((projectId) => ({ userId, projectId })));
}

/**
 * Invites a colleague: a new client row in the same organisation with its role and limits (one
 * transaction, audited), then the client invitation mail with its set-password link, exactly as
 * staff invite a client. Without its invitation the account is unusable, so it is taken back.
 */
export async function inviteMember(
  app: FastifyInstance,
  organisationId: string,
  input: { name: string; email: string; memberRole: MemberRole; projectIds: string[] },
  who: AuditContext,
): Promise<{ member: Member; invitationMail: MailOutcome }> {
  const username = await generateUniqueUsername(app, { name: input.name, email: input.email });
  const now = app.clock.now();
  let id: string;
  try {
    id = await app.db.transaction(async (tx) => {
      await lockWritableClient(tx, organisationId);
      await assertOwnProjects(tx, organisationId, input.projectIds);
      const [row] = await tx
        .insert(users)
        .values({ role: 'client', organisationId, memberRole: input.memberRole, name: input.name, email: input.email, username, createdAt: now, updatedAt: now })
        .returning({ id: users.id });
      await setLimits(tx, row.id, input.projectIds);
      await recordAudit(tx, who, { action: 'member.invite', entityId: row.id, after: { organisationId, name: input.name, email: input.email, username, memberRole: input.memberRole, projectIds: input.projectIds } });
      return row.id;
    });
  } catch (err) {
    const code = (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
    throw code === UNIQUE_VIOLATION ? conflict(ORGANISATION_TEXTS.taken) : err;
  }
  try {
    const invitation = await createClientInvitation(app, { userId: id });
    return { member: await findMember(app, organisationId, id), invitationMail: invitation.mail };
  } catch (err) {
    await app.db.delete(users).where(eq(users.id, id)).catch(() => undefined);
    throw err;
  }
}

/**
 * Locks the organisation's admins and the member (FOR UPDATE, so two admins demoting or removing
 * each other at once cannot both pass) and refuses when the change would leave no admin.
 */
async function lockForChange(tx: DbExecutor, organisationId: string, id: string, losesAdmin: (role: MemberRole | null) => boolean) {
  // The founder is locked too (FOR UPDATE, not lockWritableClient's KEY SHARE, which two such
  // transactions would each hold and then wait on): an archived client is read-only (decision 247).
  const locked = await tx
    .select({ id: users.id, name: users.name, memberRole: users.memberRole, archivedAt: users.archivedAt })
    .from(users)
    .where(and(liveMemberOf(organisationId), sql`(${users.memberRole} = 'admin' or ${users.id} = ${id} or ${users.id} = ${organisationId})`))
    .orderBy(users.id)
    .for('update');
  if (locked.find((r) => r.id === organisationId)?.archivedAt) throw conflict(CLIENT_ARCHIVED);
  const member = locked.find((r) => r.id === id);
  if (!member) throw notFound(ORGANISATION_TEXTS.notFound);
  const admins = locked.filter((r) => r.memberRole === 'admin').length;
  if (member.memberRole === 'admin' && losesAdmin(member.memberRole) && admins <= 1) throw conflict(ORGANISATION_TEXTS.lastAdmin);
  return member;
}

/** Changes a colleague's role and/or project limits (empty: all projects); audited in the same transaction. */
export async function updateMember(
  app: FastifyInstance,
  organisationId: string,
  id: string,
  input: { memberRole?: MemberRole; projectIds?: string[] },
  who: AuditContext,
): Promise<Member> {
  await app.db.transaction(async (tx) => {
    const member = await lockForChange(tx, organisationId, id, () => input.memberRole !== undefined && input.memberRole !== 'admin');
    if (input.memberRole !== undefined && input.memberRole !== member.memberRole) {
      await tx.update(users).set({ memberRole: input.memberRole, updatedAt: app.clock.now() }).where(eq(users.id, id));
      await recordAudit(tx, who, { action: 'member.role', entityId: id, before: { memberRole: member.memberRole }, after: { memberRole: input.memberRole } });
    }
    if (input.projectIds !== undefined) {
      await assertOwnProjects(tx, organisationId, input.projectIds);
      const before = (await tx.select({ projectId: projectMemberLimits.projectId }).from(projectMemberLimits).where(eq(projectMemberLimits.userId, id))).map((r) => r.projectId).sort();
      await setLimits(tx, id, input.projectIds);
      await recordAudit(tx, who, { action: 'member.limits', entityId: id, before: { projectIds: before }, after: { projectIds: [...input.projectIds].sort() } });
    }
  });
  return findMember(app, organisationId, id);
}

/**
 * Removes a colleague: it can no longer sign in (its sessions end in the same transaction, so
 * every process refuses its next request, and its invitation link stops working) and leaves the
 * list; the row stays because its messages name it. The founder is the specification's Client
 * and stays; the last admin stays.
 */
export async function removeMember(app: FastifyInstance, organisationId: string, id: string, who: AuditContext): Promise<void> {
  await app.db.transaction(async (tx) => {
    const member = await lockForChange(tx, organisationId, id, () => true);
    if (id === organisationId) throw conflict(ORGANISATION_TEXTS.founder);
    const now = app.clock.now();
    await tx.update(users).set({ removedAt: now, archivedAt: now, updatedAt: now }).where(eq(users.id, id));
    await tx.delete(projectMemberLimits).where(eq(projectMemberLimits.userId, id));
    await tx.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
    await tx.update(authTokens).set({ revokedAt: now }).where(and(eq(authTokens.userId, id), isNull(authTokens.usedAt), isNull(authTokens.revokedAt)));
    await recordAudit(tx, who, { action: 'member.remove', entityId: id, before: { name: member.name, memberRole: member.memberRole } });
  });
}
