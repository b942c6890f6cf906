import { CircleCheck, CircleDashed, CirclePause, Loader } from 'lucide-react';
import { PROJECT_STATUS_LABELS, type ProjectStatus } from '../../../common/schemas/projects.ts';
import { StatusButton, StatusLabel, type StatusLook } from '../../components/ui/status-badge.tsx';

const COLOURS: Record<ProjectStatus, string> = {
  'not-started': 'border-slate-500 bg-slate-50 text-slate-800 dark:border-slate-400 dark:bg-slate-800 dark:text-slate-100',
  'in-progress': 'border-sky-700 bg-sky-50 text-sky-900 dark:border-sky-300 dark:bg-sky-950 dark:text-sky-100',
  paused: 'border-amber-700 bg-amber-50 text-amber-900 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-100',
  completed: 'border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-300 dark:bg-emerald-950 dark:text-emerald-100',
};
const ICONS = { 'not-started': CircleDashed, 'in-progress': Loader, paused: CirclePause, completed: CircleCheck } as const;

const look = (status: ProjectStatus): StatusLook => ({ label: PROJECT_STATUS_LABELS[status], icon: ICONS[status], colours: COLOURS[status] });

/** A project's status with icon and words (never colour alone). */
export function ProjectStatusLabel({ status }: { status: ProjectStatus }) {
  return <StatusLabel look={look(status)} />;
}

/** The admin list's status button: each click saves the next status. */
export function ProjectStatusButton({ status, projectName, onCycle, busy }: { status: ProjectStatus; projectName: string; onCycle: () => void; busy?: boolean }) {
  return <StatusButton look={look(status)} recordName={projectName} onCycle={onCycle} busy={busy} className="hover:brightness-95" />;
}
