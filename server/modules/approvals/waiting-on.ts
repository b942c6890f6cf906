import { and, asc, eq, isNull, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { memberGrants, roleGrants } from '../../../common/permissions.ts';
import type { WaitingItem } from '../../../common/schemas/approvals.ts';
import { approvalRequests } from '../../db/schema/approvals.ts';
import { projects } from '../../db/schema/projects.ts';
import type { SessionUser } from '../auth/sessions.service.ts';
import { changeOrdersWaitingOn } from '../change-orders/change-orders-waiting.ts';
import { projectScope } from '../projects/project-scope.ts';
import { isOverdue } from './approvals.service.ts';

/**
 * 'Waiting on you' (decision 293): each source lists what waits on the viewer's side. A client sees
 * what it may decide; staff see what needs their action (a rejection to follow up) and what awaits
 * the client (overdue marked, to chase). A new kind of thing that waits (change orders) adds one
 * source here; the route sorts all of them together, oldest first.
 */
/** A source of waiting items. */
interface WaitingSource {
  kind: string;
  list(app: FastifyInstance, viewer: SessionUser): Promise<WaitingItem[]>;
}

const approvalsSource: WaitingSource = {
  kind: 'approval',
  async list(app, viewer) {
    const now = app.clock.now();
    const client = viewer.role === 'client';
    if (client ? !memberGrants(viewer.memberRole, 'approvals.decide') : !roleGrants(viewer.staffRole, 'projects.read')) return [];
    const waiting = client
      ? eq(approvalRequests.status, 'pending')
      : or(eq(approvalRequests.status, 'pending'), and(eq(approvalRequests.status, 'rejected'), isNull(approvalRequests.closedAt)));
    const rows = await app.db
      .select({ row: approvalRequests, projectName: projects.name, clientId: projects.clientId })
      .from(approvalRequests)
      .innerJoin(projects, eq(projects.id, approvalRequests.projectId))
      .where(and(waiting, isNull(projects.archivedAt), projectScope(viewer)))
      .orderBy(asc(approvalRequests.requestedAt))
      .limit(200);
    return rows.map(({ row, projectName, clientId }) => ({
      kind: 'approval',
      id: row.id,
      clientId,
      projectId: row.projectId,
      projectName,
      title: row.subjectTitle,
      state: client ? 'decide' : row.status === 'rejected' ? 'rejected' : 'awaiting-client',
      since: (row.status === 'rejected' && row.decidedAt ? row.decidedAt : row.requestedAt).toISOString(),
      dueOn: row.dueOn,
      overdue: isOverdue(row, now),
      comment: row.status === 'rejected' ? row.decisionComment : row.note || null,
    }));
  },
};

const changeOrdersSource: WaitingSource = { kind: 'change-order', list: changeOrdersWaitingOn };

/** Every source of 'Waiting on you': approval requests and change orders (decision 294). */
const WAITING_SOURCES: WaitingSource[] = [approvalsSource, changeOrdersSource];

/** What waits on the viewer's side, from every source, oldest first. */
export async function waitingOn(app: FastifyInstance, viewer: SessionUser): Promise<WaitingItem[]> {
  const lists = await Promise.all(WAITING_SOURCES.map((source) => source.list(app, viewer)));
  return lists.flat().sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : a.id < b.id ? -1 : 1));
}
