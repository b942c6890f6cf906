import { clsx } from 'clsx';
import { FolderOpen, Mail } from 'lucide-react';
import { nextProjectStatus, PROJECT_STATUS_LABELS, type Project, type ProjectStatus } from '../../../common/schemas/projects.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { toastFailure, useFailureToast } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { formatDay } from '../../../common/dates.ts';
import { ProjectStatusButton, ProjectStatusLabel } from './project-status.tsx';
import { ProjectStatusMenu } from './project-status-menu.tsx';
import { ArchivedBadge, ListViewControls } from '../../components/portal/tidy-actions.tsx';
import { DEFAULT_PROJECT_VIEW, projectsOf, useClientProjects, useUpdateProjectStatus, type ProjectListView } from './projects-api.ts';

/** How long the confirmation toast offers to undo a status change. */
const STATUS_UNDO_MS = 10_000;

/**
 * A client's projects: name, dates, status and unread messages, under a filter ('Show': current,
 * a status, Archived or all) and an order. Staff get a status button that cycles and saves the
 * status; clients, and everyone on an archived project (read-only), see the status only. A project with unread messages stands
 * out by a red badge with words and a thick left edge (never colour alone), also on a phone.
 */
export function ProjectList({
  clientId,
  selectedProjectId,
  onSelectProject,
  canChangeStatus,
  label,
  unreadByProject = {},
  view,
  onViewChange,
}: {
  clientId: string;
  selectedProjectId: string | null;
  onSelectProject: (project: Project) => void;
  canChangeStatus: boolean;
  label: string;
  /** Unread messages per project id (one request for all of them, GET /messages/unread). */
  unreadByProject?: Record<string, number>;
  /** The filter and order shown; the page owns it, so the selected project is looked up in the same view. */
  view: ProjectListView;
  onViewChange: (view: ProjectListView) => void;
}) {
  const projects = useClientProjects(clientId, view);
  const updateStatus = useUpdateProjectStatus();
  const list = projectsOf(projects.data);
  useFailureToast(projects.error, 'Failed to load projects');

  /**
   * Saves a status in one request and offers to put the previous one back for 10 seconds (issue 22):
   * the Undo is one more request straight to the old status, never a walk through the cycle.
   */
  async function setStatus(project: Project, status: ProjectStatus, undoing = false) {
    const previous = project.status;
    try {
      const { project: saved } = await updateStatus.mutateAsync({ id: project._id, status });
      toast({
        title: undoing ? 'Project status restored' : 'Project status updated',
        description: `${project.name}: ${PROJECT_STATUS_LABELS[status]}`,
        scope: `project-status-${project._id}`,
        ...(undoing ? {} : { durationMs: STATUS_UNDO_MS, action: { label: 'Undo', onSelect: () => void setStatus(saved, previous, true) } }),
      });
    } catch (err) {
      toastFailure('Failed to update project status', err);
    }
  }

  const busy = (project: Project) => updateStatus.isPending && updateStatus.variables?.id === project._id;

  const controls = <ListViewControls view={view} onChange={onViewChange} statusLabels={PROJECT_STATUS_LABELS} currentLabel="Current projects" noun="projects" />;
  if (projects.isPending) return <>{controls}<InlineLoading label="Loading projects..." /></>;
  if (projects.isError) return <>{controls}<ErrorState title="Failed to load projects" error={projects.error} onRetry={() => projects.refetch()} /></>;
  if (list.length === 0) {
    return (
      <>
        {controls}
        {view.status ? (
          <EmptyState icon={<FolderOpen className="size-8" aria-hidden="true" />} title="No projects to show" description="No project matches this filter." />
        ) : (
          <EmptyState icon={<FolderOpen className="size-8" aria-hidden="true" />} title="No projects found" />
        )}
      </>
    );
  }
  return (
    <>
      {controls}
      <ul className="grid gap-2" aria-label={label}>
        {list.map((project) => {
          const selected = project._id === selectedProjectId;
          const unread = unreadByProject[project._id] ?? 0;
          return (
            <li
              key={project._id}
              data-unread={unread > 0 ? unread : undefined}
              className={clsx(
                'flex flex-wrap items-start gap-2 rounded-lg border p-2',
                // One box per card: the card itself shows hover and selection, never a second box inside it (issue 21).
                selected
                  ? 'border-brand-700 bg-brand-50 dark:border-sky-300 dark:bg-slate-800'
                  : 'border-slate-200 hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-800/60',
                unread > 0 && 'border-l-4 border-l-red-700 dark:border-l-red-400',
              )}
            >
              <button
                type="button"
                onClick={() => onSelectProject(project)}
                aria-current={selected ? 'true' : undefined}
                // At least 12rem: in a narrow column the status button moves under the name instead
                // of squeezing it until a word breaks in two ('Rehabilitatio/n', issue 21).
                className="min-h-11 min-w-0 flex-1 basis-48 rounded-md px-2 py-1 text-left"
              >
                <span className="block font-semibold break-words hyphens-auto">
                  {project.name}
                  {project.archivedAt ? <ArchivedBadge /> : null}
                </span>
                <span className="block text-xs text-slate-600 dark:text-slate-300">
                  {formatDay(project.startDate)} – {formatDay(project.endDate)}
                </span>
                {unread > 0 ? (
                  <span className="mt-1 inline-flex items-center gap-1 rounded-full bg-red-700 px-2 text-xs font-semibold text-white">
                    <Mail className="size-3" aria-hidden="true" />
                    {unread} unread
                  </span>
                ) : null}
              </button>
              {canChangeStatus && !project.archivedAt ? (
                <div className="flex shrink-0 items-center gap-1">
                  <ProjectStatusButton
                    status={project.status}
                    projectName={project.name}
                    busy={busy(project)}
                    onCycle={() => void setStatus(project, nextProjectStatus(project.status))}
                  />
                  <ProjectStatusMenu
                    status={project.status}
                    projectName={project.name}
                    busy={busy(project)}
                    onChoose={(status) => void setStatus(project, status)}
                  />
                </div>
              ) : (
                <ProjectStatusLabel status={project.status} />
              )}
            </li>
          );
        })}
      </ul>
      {projects.hasNextPage ? (
        <button type="button" className={`${buttonClass('secondary')} mt-3 w-full`} onClick={() => projects.fetchNextPage()} disabled={projects.isFetchingNextPage}>
          {projects.isFetchingNextPage ? 'Loading more projects...' : 'Show more projects'}
        </button>
      ) : null}
    </>
  );
}

/**
 * The selected project from the loaded list of its client in the view shown, if loaded. One not in
 * that view (archived while open, or opened by a link or a search result) is looked up among the
 * client's archived projects, so it stays on screen, read-only.
 */
export function useSelectedProject(
  clientId: string | null | undefined,
  projectId: string | null,
  view: ProjectListView = DEFAULT_PROJECT_VIEW,
): { project: Project | null; loading: boolean } {
  const projects = useClientProjects(clientId, view);
  const inView = projectsOf(projects.data).find((p) => p._id === projectId) ?? null;
  const lookElsewhere = Boolean(projectId) && !inView && projects.isSuccess && view.status !== 'archived' && view.status !== 'all';
  const archived = useClientProjects(lookElsewhere ? clientId : null, ARCHIVED_VIEW);
  const project = inView ?? (lookElsewhere ? (projectsOf(archived.data).find((p) => p._id === projectId) ?? null) : null);
  return { project, loading: Boolean(clientId) && (projects.isPending || (lookElsewhere && archived.isPending)) };
}

const ARCHIVED_VIEW: ProjectListView = { status: 'archived', sort: '' };
