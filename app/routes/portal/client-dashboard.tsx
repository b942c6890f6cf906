import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { MousePointerClick } from 'lucide-react';
import { PROJECT_STATUSES, type Project } from '../../../common/schemas/projects.ts';
import { keepingViews, useListViewParam } from '../../components/portal/list-view-param.ts';
import { DashboardHeader } from '../../components/portal/dashboard-header.tsx';
import { EmptyState } from '../../components/portal/empty-state.tsx';
import { panelClass, revealOnPhone, SelectedProjectPanel } from '../../components/portal/selected-project-panel.tsx';
import { useFailureToast } from '../../components/portal/notify.ts';
import { AccountButton } from '../../features/auth/account-dialog.tsx';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { useLogout } from '../../features/auth/use-logout.ts';
import { ProjectCommunication } from '../../features/messages/project-communication.tsx';
import { useMessagesLoadError, useUnreadCounts } from '../../features/messages/messages-api.ts';
import { useMessageStream } from '../../features/messages/use-message-stream.ts';
import { ProjectDetailCard } from '../../features/projects/project-detail-card.tsx';
import { ProjectList, useSelectedProject } from '../../features/projects/project-list.tsx';
import { projectsOf, useClientProjects } from '../../features/projects/projects-api.ts';
import { DocumentRegister } from '../../features/documents/document-register.tsx';
import { ReportList, useReportsError } from '../../features/reports/report-list.tsx';
import { ReportMailSetting } from '../../features/reports/report-mail-setting.tsx';
import { ProjectTimeline, useTimelinesError } from '../../features/timelines/project-timeline.tsx';
import { useCountInTitle } from '../../lib/use-count-in-title.ts';
import { SearchBox } from '../../features/search/search-box.tsx';
import { TeamSection } from '../../features/organisation/team-section.tsx';
import { ProjectApprovals } from '../../features/approvals/project-approvals.tsx';
import { WaitingOnPanel } from '../../features/approvals/waiting-on-panel.tsx';
import { ChangeOrdersPanel } from '../../features/change-orders/change-orders-panel.tsx';
import { FinancePanel } from '../../features/finance/finance-panel.tsx';
import { memberGrants } from '../../../common/permissions.ts';

export const meta = () => [{ title: 'Client Dashboard' }, { name: 'robots', content: 'noindex, nofollow' }];

function ClientDashboard({ clientId }: { clientId: string }) {
  const { data: user } = useCurrentUser();
  const { logout, pending } = useLogout();
  // New messages and read receipts arrive live.
  useMessageStream();
  const [params, setParams] = useSearchParams();
  const projectId = params.get('project');
  // 'Show' and 'Order' live in the address: current projects by default, archived ones (read-only)
  // under 'Archived' (issue 22).
  const [view, setView] = useListViewParam('projects', PROJECT_STATUSES);
  const { project, loading } = useSelectedProject(clientId, projectId, view);
  const unread = useUnreadCounts().data;
  useCountInTitle('Client Dashboard', unread?.total ?? 0);
  // A client with exactly one project has nothing to choose: it opens at once.
  const projects = useClientProjects(clientId);
  const onlyProject = projects.data && !projects.hasNextPage && projectsOf(projects.data).length === 1 ? projectsOf(projects.data)[0] : null;
  useEffect(() => {
    if (!projectId && onlyProject) setParams((current) => keepingViews(current, ['projects'], { project: onlyProject._id }), { replace: true });
  }, [projectId, onlyProject, setParams]);
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const reportsError = useReportsError(project?._id);
  const timelinesError = useTimelinesError(project?._id);
  const messagesError = useMessagesLoadError(project?._id);
  useFailureToast(reportsError ?? timelinesError ?? messagesError, 'Failed to load project data');

  // 'Waiting on you' opens the project at its approvals or its change orders (decisions 293, 294).
  function reviewWaiting(item: { projectId: string; kind: string }) {
    setParams((current) => keepingViews(current, ['projects'], { project: item.projectId }));
    const section = item.kind === 'change-order' ? 'change-orders' : 'approvals';
    window.setTimeout(() => document.getElementById(section)?.scrollIntoView({ block: 'start' }), 300);
  }

  function selectProject(next: Project) {
    setParams((current) => keepingViews(current, ['projects'], { project: next._id }));
    revealOnPhone(detailHeading.current);
  }

  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <DashboardHeader title="Client Dashboard" userName={user?.name} onLogout={() => void logout()} loggingOut={pending} search={<SearchBox scope="client" />}>
        <AccountButton role="client">
          <ReportMailSetting />
        </AccountButton>
      </DashboardHeader>
      <div className="mx-auto grid max-w-screen-2xl grid-cols-1 gap-4 px-4 py-4 lg:grid-cols-[22rem_minmax(0,1fr)]">
        <div className="grid min-w-0 gap-4 self-start">
          <WaitingOnPanel side="client" onOpen={reviewWaiting} />
          <section aria-labelledby="my-projects-heading" className={`${panelClass} min-w-0`}>
            <h2 id="my-projects-heading" className="mb-3 text-lg font-semibold">
              My Projects
            </h2>
            <ProjectList
              clientId={clientId}
              selectedProjectId={projectId}
              onSelectProject={selectProject}
              canChangeStatus={false}
              label="My projects"
              unreadByProject={unread?.byProject}
              view={view}
              onViewChange={setView}
            />
          </section>
          {/* A client admin manages the organisation's people here (decision 279). */}
          {user?.memberRole === 'admin' ? <TeamSection className={`${panelClass} min-w-0`} /> : null}
        </div>
        <SelectedProjectPanel
          headingRef={detailHeading}
          project={project}
          loading={Boolean(projectId) && loading}
          empty={
            <EmptyState
              icon={<MousePointerClick className="size-8" aria-hidden="true" />}
              title="Select a Project"
              description="Choose a project from the list to see its timeline, progress reports and messages"
            />
          }
        >
          {(shown) => (
            <>
              <ProjectDetailCard project={shown} headingLevel={3} />
              <ProjectApprovals projectId={shown._id} side="client" canDecide={memberGrants(user?.memberRole, 'approvals.decide') && !shown.archivedAt} />
              <section aria-labelledby="timeline-heading" className={panelClass}>
                <h3 id="timeline-heading" className="mb-3 text-lg font-semibold">
                  Timeline
                </h3>
                <ProjectTimeline projectId={shown._id} />
              </section>
              <section aria-labelledby="reports-heading" className={panelClass}>
                <h3 id="reports-heading" className="mb-3 text-lg font-semibold">
                  Progress Reports
                </h3>
                <ReportList projectId={shown._id} />
              </section>
              <DocumentRegister projectId={shown._id} />
              <section id="change-orders" aria-labelledby="change-orders-heading" className={panelClass}>
                <h3 id="change-orders-heading" className="mb-3 text-lg font-semibold">
                  Change Orders
                </h3>
                <ChangeOrdersPanel projectId={shown._id} clientId={clientId} canDecide={memberGrants(user?.memberRole, 'approvals.decide')} />
              </section>
              {memberGrants(user?.memberRole, 'finance.read') ? (
                <section id="invoices" aria-labelledby="invoices-heading" className={panelClass}>
                  <h3 id="invoices-heading" className="mb-3 text-lg font-semibold">
                    Payment plan and invoices
                  </h3>
                  <FinancePanel projectId={shown._id} />
                </section>
              ) : null}
              <ProjectCommunication project={shown} viewer="client" />
            </>
          )}
        </SelectedProjectPanel>
      </div>
    </div>
  );
}

function CurrentClientDashboard() {
  const { data: user } = useCurrentUser();
  // A member sees its organisation's projects (decision 279); a founder's organisation has its own id.
  return user ? <ClientDashboard clientId={user.organisationId ?? user._id} /> : null;
}

export default function ClientDashboardPage() {
  return (
    <RequireRole role="client">
      <CurrentClientDashboard />
    </RequireRole>
  );
}
