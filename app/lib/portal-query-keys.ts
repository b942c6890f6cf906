import type { QueryKey } from '@tanstack/react-query';
import type { PortalChange } from '../../common/schemas/portal-events.ts';

// The one home of the portal's query keys: the features' API hooks read and write under them, and
// the live stream invalidates exactly the ones a change touches (features never import each other).

export const CLIENTS_KEY = ['clients'] as const;
export const clientProjectsKey = (clientId: string) => ['projects', 'client', clientId] as const;
export const projectTimelinesKey = (projectId: string) => ['timelines', 'project', projectId] as const;
export const projectReportsKey = (projectId: string) => ['reports', 'project', projectId] as const;
export const projectMessagesKey = (projectId: string) => ['messages', 'project', projectId] as const;
export const projectDocumentsKey = (projectId: string) => ['documents', 'project', projectId] as const;
export const projectChangeOrdersKey = (projectId: string) => ['change-orders', 'project', projectId] as const;
export const UNREAD_KEY = ['messages', 'unread'] as const;
export const projectApprovalsKey = (projectId: string) => ['approvals', 'project', projectId] as const;
/** 'Waiting on you' (decision 293): what waits on the viewer's side, from every source. */
export const WAITING_KEY = ['waiting-on'] as const;
/** The admin dashboard's mail banner (its outbox counts follow each mail staff cause). */
export const MAIL_STATUS_KEY = ['mail-status'] as const;

/** A project's payment plan, invoices and balance (decision 298). */
export const projectFinanceKey = (projectId: string) => ['finance', 'project', projectId] as const;
/** Staff's finance overview across projects. */
export const FINANCE_OVERVIEW_KEY = ['finance', 'overview'] as const;

/** The queries a live change makes stale: only those, so nothing else is fetched again. */
export function queryKeysChangedBy(change: PortalChange): QueryKey[] {
  switch (change.type) {
    case 'project.created':
      // The staff's client list counts each client's projects.
      return [clientProjectsKey(change.clientId), CLIENTS_KEY];
    case 'project.status':
    case 'project.updated':
      return [clientProjectsKey(change.clientId)];
    case 'timeline.created':
    case 'timeline.updated':
      return change.projectId ? [projectTimelinesKey(change.projectId)] : [];
    case 'report.created':
    case 'report.updated':
      return change.projectId ? [projectReportsKey(change.projectId)] : [];
    case 'client.status':
    case 'client.updated':
      return [CLIENTS_KEY];
    case 'approval.requested':
    case 'approval.decided':
    case 'approval.updated':
      return [WAITING_KEY, ...(change.projectId ? [projectApprovalsKey(change.projectId)] : [])];
    case 'document.created':
    case 'document.updated':
    case 'document.internal':
      return change.projectId ? [projectDocumentsKey(change.projectId)] : [];
    case 'change-order.created':
    case 'change-order.updated':
    case 'change-order.sent':
    case 'change-order.withdrawn':
    case 'change-order.decided':
      // A change order waits on one side or the other until it is decided ('Waiting on you').
      return [WAITING_KEY, ...(change.projectId ? [projectChangeOrdersKey(change.projectId)] : [])];
    case 'invoice.draft':
    case 'invoice.issued':
    case 'invoice.updated':
    case 'finance.plan':
      // The project's plan and invoices, and staff's overview across projects.
      return [FINANCE_OVERVIEW_KEY, ...(change.projectId ? [projectFinanceKey(change.projectId)] : [])];
  }
}
