import { and, eq, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbExecutor } from '../../mail/mailer.ts';
import { roleGrants, STAFF_ROLES, type StaffRole } from '../../../common/permissions.ts';
import { projectAssignments, projects } from '../../db/schema/projects.ts';
import { users, type UserRole } from '../../db/schema/users.ts';

/**
 * What a viewer may see of projects (decisions 268 and 277), in ONE place: every read or write that
 * bears on a project adds this condition, and a project outside it answers 404 exactly as a missing
 * id does, so ids cannot be probed.
 * - owner, admin (any staff role with projects.read that is not scoped): every project;
 * - project manager: only the projects assigned to them (project_assignments);
 * - staff without projects.read: none (their routes are being given permissions; until then the
 *   data itself stays shut);
 * - a client: only its own (clientProjects).
 */
export interface ScopeViewer {
  _id: string;
  role: UserRole;
  staffRole: StaffRole | null;
  /** A client person's organisation (decision 279); a founder's is its own id. The scope reads it from the person's row. */
  organisationId?: string | null;
}

/** A project manager is the one staff role that sees only part of the projects. */
const isScopedStaff = (viewer: ScopeViewer): boolean => viewer.role === 'admin' && viewer.staffRole === 'project_manager';

/** The columns of `projects` the scope is written on: the table's own, or an alias's in a raw statement. */
interface ProjectColumns {
  id: SQL | typeof projects.id;
  clientId: SQL | typeof projects.clientId;
}

/** The organisation a client person belongs to (decision 279), read from their row. */
const organisationOfPerson = (userId: string): SQL => sql`(select cm.organisation_id from users cm where cm.id = ${userId})`;

/**
 * A client person's projects (decision 279): their organisation's, and when they have rows in
 * project_member_limits only those. Keyed by the person's own id alone, so every bound value of the
 * scope is the viewer's id (projectScopeText and clientScopeText rely on it).
 */
function clientProjects(viewer: ScopeViewer, p: ProjectColumns): SQL {
  const userId = viewer._id;
  return sql`(${p.clientId} = ${organisationOfPerson(userId)}
    and (not exists (select 1 from project_member_limits cl where cl.user_id = ${userId})
      or exists (select 1 from project_member_limits cl where cl.user_id = ${userId} and cl.project_id = ${p.id})))`;
}

/** Whether a project has an assignment row for this user (the scope of a project manager). */
const assignedTo = (userId: string, p: ProjectColumns): SQL =>
  sql`exists (select 1 from ${projectAssignments} where ${projectAssignments.projectId} = ${p.id} and ${projectAssignments.userId} = ${userId})`;

function scopeOn(viewer: ScopeViewer, p: ProjectColumns): SQL | undefined {
  if (viewer.role !== 'admin') return clientProjects(viewer, p);
  if (!roleGrants(viewer.staffRole, 'projects.read')) return sql`false`;
  return isScopedStaff(viewer) ? assignedTo(viewer._id, p) : undefined;
}

/**
 * The condition on `projects` for what the viewer may see; undefined means everything (and(...)
 * drops it). Use it in every query that reads or writes a project's data.
 */
export const projectScope = (viewer: ScopeViewer): SQL | undefined => scopeOn(viewer, projects);

/** The same scope in a raw statement that names the projects table `alias` (search's `p`); `true` when unlimited. */
export const projectScopeOn = (viewer: ScopeViewer, alias: string): SQL =>
  scopeOn(viewer, { id: sql.raw(`${alias}.id`), clientId: sql.raw(`${alias}.client_id`) }) ?? sql`true`;

const dialect = new PgDialect();

/** Which scope a viewer has: a named statement is written once per kind (its name carries the kind). */
const scopeKind = (viewer: ScopeViewer) =>
  viewer.role !== 'admin' ? 'client' : !roleGrants(viewer.staffRole, 'projects.read') ? 'none' : isScopedStaff(viewer) ? 'assigned' : 'all';

/**
 * The scope for a named statement (planned once per connection, decision 151): its text on `alias`
 * with the viewer's id as `$param` (the statement's own parameter), `key` for the statement's name,
 * and whether the text uses the parameter (an unused parameter has no type and fails the statement).
 */
export function projectScopeText(viewer: ScopeViewer, alias: string, param: number): { key: string; text: string; usesViewer: boolean } {
  const query = dialect.sqlToQuery(projectScopeOn(viewer, alias));
  // Every value the scope binds is the viewer's id, so each placeholder becomes the statement's one.
  const text = query.sql.replace(/\$\d+/g, `$${param}`);
  return { key: scopeKind(viewer), text, usesViewer: query.params.length > 0 };
}

/**
 * A client person's scope as text on `alias`, with `userRef` (an expression, e.g. the session row's
 * `s."userId"`) standing for their id: for the statements that read along with the session
 * (decision 151), which know the person only inside the statement.
 */
export function clientScopeText(alias: string, userRef: string): string {
  return dialect.sqlToQuery(projectScopeOn({ _id: '', role: 'client', staffRole: null }, alias)).sql.replace(/\$\d+/g, userRef);
}

/** The staff roles that see every project (the session-joined list of a client's projects names them). */
export const UNSCOPED_STAFF_ROLES: readonly StaffRole[] = STAFF_ROLES.filter((r) => scopeKind({ _id: '', role: 'admin', staffRole: r }) === 'all');

/**
 * The condition on a client's id (`clientId`, qualified: `users.id`) for the clients a viewer may
 * see: a project manager those with a project of theirs, a client itself; undefined for all.
 */
export function clientInScope(viewer: ScopeViewer, clientId: SQL): SQL | undefined {
  if (viewer.role !== 'admin') return sql`${clientId} = ${organisationOfPerson(viewer._id)}`;
  if (scopeKind(viewer) === 'all') return undefined;
  return sql`exists (select 1 from ${projects} scoped where scoped.client_id = ${clientId} and ${projectScopeOn(viewer, 'scoped')})`;
}

/**
 * Whether the viewer may hear of a live event about this project (one indexed lookup; the live stream
 * asks per event): the project is in their scope, or it is gone (just deleted) and its client is,
 * so the last event of a deleted project still reaches those who had it on screen.
 */
export async function mayHearOfProject(db: DbExecutor, viewer: ScopeViewer, projectId: string, clientId: string): Promise<boolean> {
  const [row] = await db
    .select({ inScope: sql<boolean>`(${projectScope(viewer) ?? sql`true`})` })
    .from(projects)
    .where(eq(projects.id, projectId))
    .limit(1);
  return row ? row.inScope : clientIsInScope(db, viewer, clientId);
}

/** Whether the viewer may see this client (one lookup; the live stream asks per event of a client). */
export async function clientIsInScope(db: DbExecutor, viewer: ScopeViewer, clientId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, clientId), clientInScope(viewer, sql.raw('users.id'))))
    .limit(1);
  return Boolean(row);
}
