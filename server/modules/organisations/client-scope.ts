import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../../db/schema/users.ts';

/**
 * The client side's project rule (decision 279), in one place: a client member sees the projects of
 * its organisation, and, when it has rows in project_member_limits, only those. Keyed by the
 * member's own user id alone (the organisation is read from its row), so every caller that compared
 * projects.client_id with the viewer's id passes the same one value. A project outside the rule is
 * "not found", exactly like a missing one or another organisation's.
 *
 * `project` is how the query names the projects row ("projects" for the typed builder, or its alias).
 */
export function clientProjectCondition(viewer: { _id: string }, project = '"projects"'): SQL {
  const p = sql.raw(project);
  const userId = viewer._id;
  return sql`(${p}.client_id = (select cm.organisation_id from users cm where cm.id = ${userId})
    and (not exists (select 1 from project_member_limits cl where cl.user_id = ${userId})
      or exists (select 1 from project_member_limits cl where cl.user_id = ${userId} and cl.project_id = ${p}.id)))`;
}

/** The same rule as text for the named statements (decision 151); `userParam` is the statement's placeholder of the member's id. */
export function clientProjectConditionText(project: string, userParam: string): string {
  return `(${project}.client_id = (select cm.organisation_id from users cm where cm.id = ${userParam})
    and (not exists (select 1 from project_member_limits cl where cl.user_id = ${userParam})
      or exists (select 1 from project_member_limits cl where cl.user_id = ${userParam} and cl.project_id = ${project}.id)))`;
}

/**
 * Whether a client member may hear of a live event of its organisation (the organisation already
 * matched): of the organisation itself always; of a project when it has no limits or that one.
 */
export async function memberMayHearOfProject(app: FastifyInstance, userId: string, projectId: string | null): Promise<boolean> {
  const { rows } = await app.pool.query<{ ok: boolean }>(
    `select $2::uuid is null or not exists (select 1 from project_member_limits where user_id = $1)
       or exists (select 1 from project_member_limits where user_id = $1 and project_id = $2::uuid) as ok`,
    [userId, projectId],
  );
  return rows[0]?.ok ?? false;
}

/**
 * The users row that stands for the specification's Client: its organisation's founder, whose id is
 * the organisation's (decision 279). Colleagues are client rows too, but never a Client of their own.
 */
export const IS_CLIENT_ACCOUNT: SQL = sql`${users.id} = ${users.organisationId}`;

/** A client person's identity as the API shows it: a Client (its founder) and a member alike. */
export const personOf = (row: { id: string; name: string; email: string; username: string | null }) => ({ _id: row.id, name: row.name, email: row.email, username: row.username });
