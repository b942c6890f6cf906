import type { Project } from '../../../common/schemas/projects.ts';
import { formatDate, formatDay } from '../../../common/dates.ts';
import { ProjectStatusLabel } from './project-status.tsx';
import { EditProjectDialog } from './edit-project-dialog.tsx';
import { ProjectTidyActions } from './project-tidy.tsx';
import { ProjectManagers } from './project-managers.tsx';
import { ArchivedBadge } from '../../components/portal/tidy-actions.tsx';
import { formatKobo, formatNaira } from '../../../common/money.ts';


/**
 * The selected project: name, description, dates, status and the client's name (budget for staff
 * only). Staff may edit, archive, restore and delete it; an archived one is read-only (no edit) and
 * says so to both sides.
 */
export function ProjectDetailCard({
  project,
  headingLevel = 2,
  editable = false,
  onArchived,
  onDeleted,
}: {
  project: Project;
  headingLevel?: 2 | 3;
  editable?: boolean;
  onArchived?: (archived: boolean) => void;
  onDeleted?: () => void;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const archived = project.archivedAt !== null;
  return (
    <section aria-label="Project details" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">{project.code}</p>
          <Heading className="text-xl font-bold break-words sm:text-2xl">
            {project.name}
            {archived ? <ArchivedBadge /> : null}
          </Heading>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <ProjectStatusLabel status={project.status} />
          {editable && !archived ? <EditProjectDialog key={project._id} project={project} /> : null}
        </div>
      </div>
      {project.archivedAt ? (
        <p className="mt-3 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100">
          Archived on {formatDate(project.archivedAt)}: read-only, with all its reports, timeline and messages.
          {editable ? ' Restore it to change it.' : null}
        </p>
      ) : null}
      {project.description ? (
        <p className="mt-3 whitespace-pre-line text-slate-700 dark:text-slate-200">{project.description}</p>
      ) : (
        <p className="mt-3 text-slate-600 italic dark:text-slate-300">No description</p>
      )}
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-600 dark:text-slate-300">Start date</dt>
          <dd className="font-medium">{formatDay(project.startDate)}</dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-300">End date</dt>
          <dd className="font-medium">{formatDay(project.endDate)}</dd>
        </div>
        <div>
          <dt className="text-slate-600 dark:text-slate-300">Client</dt>
          <dd className="font-medium break-words">{project.clientId.name}</dd>
        </div>
        {project.budget !== undefined ? (
          <div>
            <dt className="text-slate-600 dark:text-slate-300">Budget</dt>
            <dd className="font-medium">{project.budgetKobo !== undefined ? formatKobo(project.budgetKobo) : formatNaira(project.budget)}</dd>
          </div>
        ) : null}
      </dl>
      {editable ? (
        <div className="mt-4 grid gap-4 border-t border-slate-200 pt-4 dark:border-slate-800">
          <ProjectManagers project={project} />
          <ProjectTidyActions project={project} onArchived={onArchived} onDeleted={onDeleted} />
        </div>
      ) : null}
    </section>
  );
}
