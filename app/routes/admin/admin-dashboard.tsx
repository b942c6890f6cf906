import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FolderKanban, MousePointerClick, Users } from 'lucide-react';
import { CLIENT_STATUSES, type Client } from '../../../common/schemas/clients.ts';
import { PROJECT_STATUSES, type Project } from '../../../common/schemas/projects.ts';
import { keepingViews, useListViewParam } from '../../components/portal/list-view-param.ts';
import { EmptyState } from '../../components/portal/empty-state.tsx';
import { DocumentRegister } from '../../features/documents/document-register.tsx';
import { panelClass, revealOnPhone, SelectedProjectPanel } from '../../components/portal/selected-project-panel.tsx';
import { useFailureToast } from '../../components/portal/notify.ts';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { SubmissionCounts } from '../../features/submissions/submission-counts.tsx';
import { MailStatusBanner } from '../../features/mail/mail-status-banner.tsx';
import { ClientManagement } from '../../features/clients/client-management.tsx';
import { clientsOf, useClients, type ClientListView } from '../../features/clients/clients-api.ts';
import { CLIENTS_KEY } from '../../lib/portal-query-keys.ts';
import { ProjectCommunication } from '../../features/messages/project-communication.tsx';
import { useMessagesLoadError, useUnreadCounts } from '../../features/messages/messages-api.ts';
import { NextUnread } from '../../features/messages/next-unread.tsx';
import { useMessageStream } from '../../features/messages/use-message-stream.ts';
import { CreateProjectDialog } from '../../features/projects/create-project-dialog.tsx';
import { ProjectDetailCard } from '../../features/projects/project-detail-card.tsx';
import { ProjectList, useSelectedProject } from '../../features/projects/project-list.tsx';
import { CreateReportDialog } from '../../features/reports/create-report-dialog.tsx';
import { ChangeOrdersPanel } from '../../features/change-orders/change-orders-panel.tsx';
import { FinancePanel } from '../../features/finance/finance-panel.tsx';
import { ReportList, useReportsError } from '../../features/reports/report-list.tsx';
import { ProjectTimeline, useTimelinesError } from '../../features/timelines/project-timeline.tsx';
import { TimelineEditor } from '../../features/timelines/timeline-editor.tsx';
import { useCountInTitle } from '../../lib/use-count-in-title.ts';
import { can } from '../../../common/permissions.ts';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

import { AskApprovalButton, ProjectApprovals } from '../../features/approvals/project-approvals.tsx';
import { WaitingOnPanel } from '../../features/approvals/waiting-on-panel.tsx';
export const meta = () => [{ title: 'Admin Dashboard' }, { name: 'robots', content: 'noindex, nofollow' }];

function AdminDashboard() {
  const { data: user } = useCurrentUser();
  const queryClient = useQueryClient();
  // New messages and read receipts arrive live; the clients' unread counts follow them.
  const refreshUnread = () => void queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
  useMessageStream(refreshUnread);
  const [params, setParams] = useSearchParams();
  const clientId = params.get('client');
  const projectId = params.get('project');
  // The lists' 'Show' and 'Order' live in the address: current records by default, archived ones
  // (read-only) under 'Archived' (issue 22).
  const [clientView, setClientView] = useListViewParam('clients', CLIENT_STATUSES);
  const [view, setView] = useListViewParam('projects', PROJECT_STATUSES);
  const select = (next: Record<string, string>) => setParams((current) => keepingViews(current, VIEW_KEYS, next));
  const selectedClient = useSelectedClient(clientId, clientView);
  // An archived client's projects are read-only too (decision 247): the server refuses every change.
  const clientArchived = Boolean(selectedClient?.archivedAt);
  const { project, loading: projectLoading } = useSelectedProject(clientId, projectId, view);
  const unread = useUnreadCounts().data;
  useCountInTitle('Admin Dashboard', unread?.total ?? 0);
  const client = selectedClient ?? (project ? project.clientId : null);
  const projectsHeading = useRef<HTMLHeadingElement>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const reportsError = useReportsError(project?._id);
  const timelinesError = useTimelinesError(project?._id);
  const messagesError = useMessagesLoadError(project?._id);
  useFailureToast(reportsError ?? timelinesError ?? messagesError, 'Failed to load project data');

  // Choosing a client forgets the chosen project (and so its reports and timeline), then loads the client's projects.
  function selectClient(next: Client) {
    select({ client: next._id });
    revealOnPhone(projectsHeading.current);
  }
  function selectProject(next: Project) {
    select({ client: next.clientId._id, project: next._id });
    revealOnPhone(detailHeading.current);
  }
  // The list follows the project staff archived or restored, so it stays selected and in view.
  function followArchive(archived: boolean) {
    setView({ ...view, status: view.status === 'all' ? 'all' : archived ? 'archived' : '' });
  }
  function openThread(thread: { projectId: string; clientId: string }) {
    select({ client: thread.clientId, project: thread.projectId });
    revealOnPhone(detailHeading.current);
  }

  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <AdminFrameHeader title="Admin Dashboard" />
      <div className="mx-auto grid max-w-screen-2xl gap-3 px-4 pt-4">
        {can(user, 'settings.manage') ? <MailStatusBanner /> : null}
        {can(user, 'submissions.read') ? <SubmissionCounts /> : null}
        <NextUnread currentProjectId={projectId} onOpen={openThread} />
        {can(user, 'projects.read') ? <WaitingOnPanel side="staff" onOpen={openThread} /> : null}
      </div>
      <div className="mx-auto grid max-w-screen-2xl grid-cols-1 gap-4 px-4 py-4 lg:grid-cols-[20rem_minmax(0,1fr)] xl:grid-cols-[20rem_20rem_minmax(0,1fr)]">
        <div className="min-w-0 lg:row-span-3 xl:row-span-2">
          <ClientManagement
            selectedClientId={clientId}
            onSelectClient={selectClient}
            view={clientView}
            onViewChange={setClientView}
            canManageClients={can(user, 'projects.assign')}
          />
        </div>

        <section aria-labelledby="projects-heading" className={`${panelClass} min-w-0 self-start`}>
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="projects-heading" ref={projectsHeading} tabIndex={-1} className="min-w-0 text-lg font-semibold break-words">
              {client ? `Projects of ${client.name}` : 'Projects'}
            </h2>
            {client && !clientArchived && can(user, 'projects.assign') ? <CreateProjectDialog client={client} /> : null}
          </div>
          {clientId ? (
            <ProjectList
              clientId={clientId}
              selectedProjectId={projectId}
              onSelectProject={selectProject}
              canChangeStatus={!clientArchived}
              label={`Projects of ${client?.name ?? 'the client'}`}
              unreadByProject={unread?.byProject}
              view={view}
              onViewChange={setView}
            />
          ) : (
            <EmptyState
              icon={<Users className="size-8" aria-hidden="true" />}
              title="Select a Client"
              description="Choose a client from the list to view projects and communicate"
            />
          )}
        </section>

        <SelectedProjectPanel
          headingRef={detailHeading}
          project={project}
          loading={Boolean(projectId) && projectLoading}
          className="lg:col-start-2 xl:col-start-3 xl:row-start-1"
          empty={
            // A link to a project this person may not see (another project manager's, decision 277)
            // reads as a missing one: the server answered 404 or the lists do not hold it.
            projectId && !projectLoading ? (
              <EmptyState
                icon={<FolderKanban className="size-8" aria-hidden="true" />}
                title="Project not found"
                description="This project does not exist, or is not one of yours. Choose a project from the list."
              />
            ) : (
              <EmptyState
                icon={projectId ? <FolderKanban className="size-8" aria-hidden="true" /> : <MousePointerClick className="size-8" aria-hidden="true" />}
                title="Select a Project"
                description="Choose a project from the list to view details and manage communications"
              />
            )
          }
        >
          {(shown) => (
            <>
              <ProjectDetailCard project={shown} headingLevel={3} editable={!clientArchived} onArchived={followArchive} onDeleted={() => select({ client: shown.clientId._id })} />
              <ProjectCommunication project={shown} viewer="admin" clientId={client?._id} onActivity={refreshUnread} readOnly={clientArchived} />
              <section aria-labelledby="reports-heading" className={panelClass}>
                <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                  <h3 id="reports-heading" className="text-lg font-semibold">
                    Progress Reports
                  </h3>
                  {/* An archived project, or one of an archived client, is read-only (issue 22): no new report, no correction. */}
                  {shown.archivedAt || clientArchived ? null : <CreateReportDialog key={shown._id} project={shown} />}
                </div>
                <ReportList
                  projectId={shown._id}
                  staff
                  readOnly={Boolean(shown.archivedAt) || clientArchived}
                  actions={
                    shown.archivedAt || clientArchived || !can(user, 'projects.write')
                      ? undefined
                      : (r) => <AskApprovalButton projectId={shown._id} preset={`report:${r._id}`} ariaLabel={`Ask the client to approve the report of ${r.date}`} />
                  }
                />
              </section>
              <ProjectApprovals projectId={shown._id} side="staff" readOnly={Boolean(shown.archivedAt) || clientArchived || !can(user, 'projects.write')} />
              <DocumentRegister projectId={shown._id} staff readOnly={Boolean(shown.archivedAt) || clientArchived} />
              <section id="change-orders" aria-labelledby="change-orders-heading" className={panelClass}>
                <h3 id="change-orders-heading" className="mb-3 text-lg font-semibold">
                  Change Orders
                </h3>
                <ChangeOrdersPanel
                  projectId={shown._id}
                  clientId={shown.clientId._id}
                  staff
                  readOnly={Boolean(shown.archivedAt) || clientArchived || !can(user, 'projects.write')}
                />
              </section>
              {can(user, 'finance.read') ? (
                <section id="invoices" aria-labelledby="invoices-heading" className={panelClass}>
                  <h3 id="invoices-heading" className="mb-3 text-lg font-semibold">
                    Payment plan and invoices
                  </h3>
                  <FinancePanel projectId={shown._id} staff canWrite={can(user, 'finance.write') && !shown.archivedAt && !clientArchived} />
                </section>
              ) : null}
            </>
          )}
        </SelectedProjectPanel>

        {/* The timeline's editor and the client's chart side by side need more than the detail
            column: wide, the panel spans the projects and detail columns (issue 22). */}
        {project ? (
          <section aria-labelledby="timeline-heading" className={`${panelClass} min-w-0 lg:col-start-2 xl:col-span-2`}>
            <h3 id="timeline-heading" className="mb-3 text-lg font-semibold">
              Timeline
            </h3>
            {project.archivedAt || clientArchived ? <ProjectTimeline projectId={project._id} /> : <TimelineEditor project={project} />}
          </section>
        ) : null}
      </div>
    </div>
  );
}

const VIEW_KEYS = ['clients', 'projects'] as const;

const ARCHIVED_CLIENTS: ClientListView = { status: 'archived', sort: '' };

/**
 * The chosen client as last seen in a list: one archived while chosen leaves the default list, yet
 * its projects must stay read-only on screen, so its archived record is kept while it stays chosen.
 * One in neither list shown (a link to an archived client's project) is looked up among the archived.
 */
function useSelectedClient(clientId: string | null, view: ClientListView): Client | null {
  const shown = useClients(view);
  const current = useClients();
  const find = (...lists: Array<typeof shown>) => lists.flatMap((q) => clientsOf(q.data)).find((c) => c._id === clientId) ?? null;
  const inLists = find(shown, current);
  const archived = useClients(ARCHIVED_CLIENTS, Boolean(clientId) && !inLists && shown.isSuccess && current.isSuccess);
  const found = inLists ?? find(archived);
  const [known, setKnown] = useState<Client | null>(null);
  useEffect(() => {
    if (found) setKnown(found);
  }, [found]);
  return found ?? (known?._id === clientId ? known : null);
}

export default function AdminDashboardPage() {
  return (
    <RequireRole role="admin">
      {/* Clients and projects together: every role that reads one reads the other (decision 273). */}
      <AdminPageGuard title="Admin Dashboard" permission="projects.read" landing>
        <AdminDashboard />
      </AdminPageGuard>
    </RequireRole>
  );
}
