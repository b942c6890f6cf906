import { clsx } from 'clsx';
import { CircleCheck, CircleDashed, Loader } from 'lucide-react';
import { TIMELINE_TASK_STATUS_LABELS, timelineMonths, type Timeline, type TimelineTaskStatus } from '../../../common/schemas/timelines.ts';
import { formatMonth } from '../../lib/dates.ts';

const ICONS = { 'not-started': CircleDashed, 'in-progress': Loader, completed: CircleCheck } as const;

// Each status differs by icon and by fill (solid, striped, outline), so colour is never the only cue.
const CELL: Record<TimelineTaskStatus, string> = {
  completed: 'border-emerald-800 bg-emerald-700 text-white dark:border-emerald-300 dark:bg-emerald-400 dark:text-slate-950',
  'in-progress':
    'border-sky-800 text-sky-950 bg-[repeating-linear-gradient(135deg,var(--color-sky-200)_0_6px,var(--color-sky-100)_6px_12px)] dark:border-sky-300 dark:text-sky-50 dark:bg-[repeating-linear-gradient(135deg,var(--color-sky-800)_0_6px,var(--color-sky-950)_6px_12px)]',
  'not-started': 'border-dashed border-slate-500 bg-transparent text-slate-700 dark:border-slate-400 dark:text-slate-200',
};

function StatusMark({ status, withText }: { status: TimelineTaskStatus; withText?: boolean }) {
  const Icon = ICONS[status];
  return (
    <span className={clsx('inline-flex min-h-8 w-full items-center justify-center gap-1 rounded border-2 px-1 text-xs font-semibold', CELL[status])}>
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {withText ? TIMELINE_TASK_STATUS_LABELS[status] : <span className="sr-only">{TIMELINE_TASK_STATUS_LABELS[status]}</span>}
    </span>
  );
}

/** The legend of the chart's three marks. */
export function TimelineLegend() {
  return (
    <ul className="flex flex-wrap gap-3 text-xs" aria-label="Legend">
      {(['completed', 'in-progress', 'not-started'] as const).map((status) => (
        <li key={status} className="w-32">
          <StatusMark status={status} withText />
        </li>
      ))}
    </ul>
  );
}

// The scroller is `relative` so the screen-reader-only texts (absolutely positioned) inside it are
// clipped by it too, instead of widening the whole page on a phone.
/**
 * A timeline drawn as a month-by-task chart: one row per task, one column per month, the task's
 * mark in its month. A real table, so screen readers announce task, month and status together;
 * it scrolls sideways on a phone.
 */
export function TimelineChart({ timeline }: { timeline: Timeline }) {
  const months = timelineMonths(timeline.tasks);
  if (timeline.tasks.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">No tasks planned yet.</p>;
  }
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <TimelineLegend />
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700" tabIndex={0} role="region" aria-label={`Timeline: ${timeline.projectTitle}`}>
        <table className="w-full min-w-max border-collapse text-sm">
          <caption className="sr-only">
            {timeline.projectTitle}: tasks by month
          </caption>
          <thead>
            <tr className="bg-slate-50 dark:bg-slate-800">
              <th scope="col" className="sticky left-0 bg-slate-50 px-3 py-2 text-left font-semibold dark:bg-slate-800">
                Task
              </th>
              {months.map((m) => (
                <th key={m} scope="col" className="px-2 py-2 text-center font-semibold whitespace-nowrap">
                  {formatMonth(m)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {timeline.tasks.map((task, index) => (
              <tr key={`${task.task}-${index}`} className="border-t border-slate-200 dark:border-slate-700">
                <th scope="row" className="sticky left-0 max-w-48 bg-white px-3 py-2 text-left font-medium break-words dark:bg-slate-900">
                  {task.task}
                  <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">{TIMELINE_TASK_STATUS_LABELS[task.status]}</span>
                </th>
                {months.map((m) => (
                  <td key={m} className="w-24 min-w-20 px-2 py-2 text-center">
                    {task.month === m ? <StatusMark status={task.status} /> : null}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
