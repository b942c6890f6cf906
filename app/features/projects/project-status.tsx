import { clsx } from 'clsx';
import { CircleCheck, CircleDashed, CirclePause, Loader } from 'lucide-react';
import { PROJECT_STATUS_LABELS, type ProjectStatus } from '../../../common/schemas/projects.ts';

const STYLES: Record<ProjectStatus, string> = {
  'not-started': 'border-slate-500 bg-slate-50 text-slate-800 dark:border-slate-400 dark:bg-slate-800 dark:text-slate-100',
  'in-progress': 'border-sky-700 bg-sky-50 text-sky-900 dark:border-sky-300 dark:bg-sky-950 dark:text-sky-100',
  paused: 'border-amber-700 bg-amber-50 text-amber-900 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-100',
  completed: 'border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-300 dark:bg-emerald-950 dark:text-emerald-100',
};
const ICONS = { 'not-started': CircleDashed, 'in-progress': Loader, paused: CirclePause, completed: CircleCheck } as const;

const projectStatusClass = (status: ProjectStatus) =>
  clsx('inline-flex min-h-8 shrink-0 items-center gap-1 rounded-full border px-2.5 py-1 text-xs font-semibold', STYLES[status]);

/** A project's status with icon and words (never colour alone). */
export function ProjectStatusLabel({ status }: { status: ProjectStatus }) {
  const Icon = ICONS[status];
  return (
    <span className={projectStatusClass(status)}>
      <Icon className="size-3.5" aria-hidden="true" />
      {PROJECT_STATUS_LABELS[status]}
    </span>
  );
}

/** The admin list's status button: each click saves the next status. */
export function ProjectStatusButton({ status, projectName, onCycle, busy }: { status: ProjectStatus; projectName: string; onCycle: () => void; busy?: boolean }) {
  const Icon = ICONS[status];
  return (
    <button
      type="button"
      onClick={onCycle}
      disabled={busy}
      aria-label={`${PROJECT_STATUS_LABELS[status]}: change status of ${projectName}`}
      className={clsx(projectStatusClass(status), 'hover:brightness-95 disabled:opacity-60')}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {PROJECT_STATUS_LABELS[status]}
    </button>
  );
}
