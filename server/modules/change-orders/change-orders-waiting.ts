import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { changeOrderNumber, type ChangeOrderStatus } from '../../../common/schemas/change-orders.ts';
import { memberGrants, roleGrants, type MemberRole } from '../../../common/permissions.ts';
import type { WaitingItem } from '../../../common/schemas/approvals.ts';
import { changeOrders } from '../../db/schema/change-orders.ts';
import { projects } from '../../db/schema/projects.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';

/**
 * What waits on this viewer among change orders ('Waiting on you', decision 293's list), oldest first:
 * for a client person who may decide (approvals.decide), the sent change orders of the projects they
 * see; for staff who may write projects, their drafts not yet sent and the sent ones the client has
 * not decided. Anyone else: nothing. Change orders carry no due date.
 */
export async function changeOrdersWaitingOn(app: FastifyInstance, viewer: ScopeViewer & { memberRole?: MemberRole | null }): Promise<WaitingItem[]> {
  const isStaff = viewer.role === 'admin';
  if (isStaff ? !roleGrants(viewer.staffRole, 'projects.write') : !memberGrants(viewer.memberRole ?? (await memberRoleOf(app, viewer._id)), 'approvals.decide')) return [];
  const waiting = isStaff ? inArray(changeOrders.status, ['draft', 'sent'] satisfies ChangeOrderStatus[]) : eq(changeOrders.status, 'sent' satisfies ChangeOrderStatus);
  const since = sql<Date>`coalesce(${changeOrders.sentAt}, ${changeOrders.createdAt})`;
  const rows = await app.db
    .select({ id: changeOrders.id, projectId: changeOrders.projectId, projectName: projects.name, clientId: projects.clientId, number: changeOrders.number, title: changeOrders.title, status: changeOrders.status, since })
    .from(changeOrders)
    .innerJoin(projects, eq(projects.id, changeOrders.projectId))
    .where(and(waiting, projectScope(viewer), sql`${projects.archivedAt} is null`))
    .orderBy(asc(since), asc(changeOrders.id))
    .limit(200);
  return rows.map((r) => ({
    kind: 'change-order',
    id: r.id,
    clientId: r.clientId,
    projectId: r.projectId,
    projectName: r.projectName,
    title: `${changeOrderNumber(r.number)}: ${r.title}`,
    state: isStaff ? (r.status === 'draft' ? 'draft' : 'awaiting-client') : 'decide',
    since: new Date(r.since).toISOString(),
    dueOn: null,
    overdue: false,
    comment: null,
  }));
}

async function memberRoleOf(app: FastifyInstance, userId: string): Promise<MemberRole | null> {
  const r = await app.db.execute<{ member_role: MemberRole | null }>(sql`select member_role from users where id = ${userId}`);
  return r.rows[0]?.member_role ?? null;
}
