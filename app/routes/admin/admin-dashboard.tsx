import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FolderKanban, MousePointerClick, Users } from 'lucide-react';
import type { Client } from '../../../common/schemas/clients.ts';
import type { Project } from '../../../common/schemas/projects.ts';
import { EmptyState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { useFailureToast } from '../../components/portal/notify.ts';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { SubmissionCounts } from '../../features/submissions/submission-counts.tsx';
import { MailStatusBanner } from '../../features/mail/mail-status-banner.tsx';
import { ClientManagement } from '../../features/clients/client-management.tsx';
import { clientsOf, useClients } from '../../features/clients/clients-api.ts';
import { CLIENTS_KEY } from '../../lib/portal-query-keys.ts';
import { ProjectCommunication } from '../../features/messages/project-communication.tsx';
import { useMessagesLoadError, useUnreadCounts } from '../../features/messages/messages-api.ts';
import { NextUnread } from '../../features/messages/next-unread.tsx';
import { useMessageStream } from '../../features/messages/use-message-stream.ts';
import { CreateProjectDialog } from '../../features/projects/create-project-dialog.tsx';
import { ProjectDetailCard } from '../../features/projects/project-detail-card.tsx';
import { ProjectList, useSelectedProject } from '../../features/projects/project-list.tsx';
import { CreateReportDialog } from '../../features/reports/create-report-dialog.tsx';
import { ReportList, useReportsError } from '../../features/reports/report-list.tsx';
import { useTimelinesError } from '../../features/timelines/project-timeline.tsx';
import { TimelineEditor } from '../../features/timelines/timeline-editor.tsx';
import { useCountInTitle } from '../../lib/use-count-in-title.ts';
import { AdminFrameHeader } from './admin-frame.tsx';

export const meta = () => [{ title: 'Admin Dashboard' }, { name: 'robots', content: 'noindex, nofollow' }];

const panelClass = 'rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';
/** Below this width the panels stack, so choosing something scrolls to what it opened. */
const STACKED_MAX_PX = 1023;

function AdminDashboard() {
  const queryClient = useQueryClient();
  // New messages and read receipts arrive live; the clients' unread counts follow them.
  const refreshUnread = () => void queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
  useMessageStream(refreshUnread);
  const [params, setParams] = useSearchParams();
  const clientId = params.get('client');
  const projectId = params.get('project');
  const clients = useClients();
  // The client chosen stays chosen when the list moves to another page (Next / Previous).
  const [picked, setPicked] = useState<Client | null>(null);
  const selectedClient = clientsOf(clients.data).find((c) => c._id === clientId) ?? (picked?._id === clientId ? picked : null);
  const { project, loading: projectLoading } = useSelectedProject(clientId, projectId);
  const unread = useUnreadCounts().data;
  useCountInTitle('Admin Dashboard', unread?.total ?? 0);
  const client = selectedClient ?? (project ? project.clientId : null);
  const projectsHeading = useRef<HTMLHeadingElement>(null);
  const detailHeading = useRef<HTMLHeadingElement>(null);
  const reportsError = useReportsError(project?._id);
  const timelinesError = useTimelinesError(project?._id);
  const messagesError = useMessagesLoadError(project?._id);
  useFailureToast(reportsError ?? timelinesError ?? messagesError, 'Failed to load project data');

  const revealOnPhone = (target: HTMLElement | null) => {
    if (target && window.matchMedia(`(max-width: ${STACKED_MAX_PX}px)`).matches) {
      requestAnimationFrame(() => {
        target.scrollIntoView({ behavior: 'smooth', block: 'start' });
        target.focus({ preventScroll: true });
      });
    }
  };

  // Choosing a client forgets the chosen project (and so its reports and timeline), then loads the client's projects.
  function selectClient(next: Client) {
    setPicked(next);
    setParams({ client: next._id });
    revealOnPhone(projectsHeading.current);
  }
  function selectProject(next: Project) {
    setParams({ client: next.clientId._id, project: next._id });
    revealOnPhone(detailHeading.current);
  }
  function openThread(thread: { projectId: string; clientId: string }) {
    setParams({ client: thread.clientId, project: thread.projectId });
    revealOnPhone(detailHeading.current);
  }

  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <AdminFrameHeader title="Admin Dashboard" />
      <div className="mx-auto grid max-w-screen-2xl gap-3 px-4 pt-4">
        <MailStatusBanner />
        <SubmissionCounts />
        <NextUnread currentProjectId={projectId} onOpen={openThread} />
      </div>
      <div className="mx-auto grid max-w-screen-2xl grid-cols-1 gap-4 px-4 py-4 lg:grid-cols-[20rem_minmax(0,1fr)] xl:grid-cols-[20rem_20rem_minmax(0,1fr)]">
        <div className="min-w-0 lg:row-span-3 xl:row-span-2">
          <ClientManagement selectedClientId={clientId} onSelectClient={selectClient} />
        </div>

        <section aria-labelledby="projects-heading" className={`${panelClass} min-w-0 self-start`}>
          <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
            <h2 id="projects-heading" ref={projectsHeading} tabIndex={-1} className="min-w-0 text-lg font-semibold break-words">
              {client ? `Projects of ${client.name}` : 'Projects'}
            </h2>
            {client ? <CreateProjectDialog client={client} /> : null}
          </div>
          {clientId ? (
            <ProjectList clientId={clientId} selectedProjectId={projectId} onSelectProject={selectProject}
              canChangeStatus
              label={`Projects of ${client?.name ?? 'the client'}`}
              unreadByProject={unread?.byProject}
            />
          ) : (
            <EmptyState
              icon={<Users className="size-8" aria-hidden="true" />}
              title="Select a Client"
              description="Choose a client from the list to view projects and communicate"
            />
          )}
        </section>

        <section aria-labelledby="project-detail-heading" className="grid min-w-0 grid-cols-1 content-start gap-4 lg:col-start-2 xl:col-start-3 xl:row-start-1">
          <h2 id="project-detail-heading" ref={detailHeading} tabIndex={-1} className="sr-only">
            Selected project
          </h2>
          {project ? (
            <>
              <ProjectDetailCard project={project} headingLevel={3} editable />
              <ProjectCommunication project={project} viewer="admin" clientId={client?._id} onActivity={refreshUnread} />
              <section aria-labelledby="reports-heading" className={panelClass}>
                <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                  <h3 id="reports-heading" className="text-lg font-semibold">
                    Progress Reports
                  </h3>
                  <CreateReportDialog key={project._id} project={project} />
                </div>
                <ReportList projectId={project._id} staff />
              </section>
            </>
          ) : projectId && projectLoading ? (
            <InlineLoading label="Loading project..." />
          ) : (
            <div className={panelClass}>
              <EmptyState
                icon={projectId ? <FolderKanban className="size-8" aria-hidden="true" /> : <MousePointerClick className="size-8" aria-hidden="true" />}
                title="Select a Project"
                description="Choose a project from the list to view details and manage communications"
              />
            </div>
          )}
        </section>

        {/* The timeline's editor and the client's chart side by side need more than the detail
            column: wide, the panel spans the projects and detail columns (issue 22). */}
        {project ? (
          <section aria-labelledby="timeline-heading" className={`${panelClass} min-w-0 lg:col-start-2 xl:col-span-2`}>
            <h3 id="timeline-heading" className="mb-3 text-lg font-semibold">
              Timeline
            </h3>
            <TimelineEditor project={project} />
          </section>
        ) : null}
      </div>
    </div>
  );
}

export default function AdminDashboardPage() {
  return (
    <RequireRole role="admin">
      <AdminDashboard />
    </RequireRole>
  );
}
