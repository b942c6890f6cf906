import { sql } from 'drizzle-orm';
import { MEMBER_PERMISSIONS, type MemberPermission } from '../../../common/permissions.ts';
import type { DbExecutor } from '../../mail/mailer.ts';

/** A client person a project's mail goes to. */
export interface ProjectPerson {
  id: string;
  name: string;
  email: string;
}

/**
 * The people of a project's client whose member role grants `permission` (decision 279's table:
 * approvers for approvals.decide, finance people for finance.read), still members, not archived, and
 * with the project inside their limits; oldest first. The one query behind every such mailing list.
 */
export async function projectPeopleWith(tx: DbExecutor, projectId: string, permission: MemberPermission): Promise<ProjectPerson[]> {
  const roles = MEMBER_PERMISSIONS[permission] as readonly string[];
  const result = await tx.execute<{ id: string; name: string; email: string }>(sql`
    select u.id, u.name, u.email from projects p join users u on u.organisation_id = p.client_id
    where p.id = ${projectId} and u.role = 'client' and u.member_role in (${sql.join(roles.map((r) => sql`${r}`), sql`, `)})
      and u.removed_at is null and u.archived_at is null
      and (not exists (select 1 from project_member_limits l where l.user_id = u.id)
        or exists (select 1 from project_member_limits l where l.user_id = u.id and l.project_id = p.id))
    order by u.created_at, u.id`);
  return result.rows;
}
