import { sql, type SQL } from 'drizzle-orm';
import { users } from '../../db/schema/users.ts';

/**
 * The client side's project rule (decision 279) as text for the named statements that read along with
 * the session (decision 151): a client member sees the projects of its organisation, and, when it
 * has rows in project_member_limits, only those. `userParam` names the member's id in the statement.
 * projectScope (project-scope.ts) writes the same rule for every other query.
 */
export function clientProjectConditionText(project: string, userParam: string): string {
  return `(${project}.client_id = (select cm.organisation_id from users cm where cm.id = ${userParam})
    and (not exists (select 1 from project_member_limits cl where cl.user_id = ${userParam})
      or exists (select 1 from project_member_limits cl where cl.user_id = ${userParam} and cl.project_id = ${project}.id)))`;
}

/**
 * The users row that stands for the specification's Client: its organisation's founder, whose id is
 * the organisation's (decision 279). Colleagues are client rows too, but never a Client of their own.
 */
export const IS_CLIENT_ACCOUNT: SQL = sql`${users.id} = ${users.organisationId}`;

/** A client person's identity as the API shows it: a Client (its founder) and a member alike. */
export const personOf = (row: { id: string; name: string; email: string; username: string | null }) => ({ _id: row.id, name: row.name, email: row.email, username: row.username });
