import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { clsx } from 'clsx';
import { CircleCheck, CircleDashed, Loader, MoveHorizontal } from 'lucide-react';
import {
  TIMELINE_TASK_STATUS_LABELS,
  taskMonthCount,
  timelineMonths,
  type Timeline,
  type TimelineTaskStatus,
} from '../../../common/schemas/timelines.ts';
import { formatMonth } from '../../../common/dates.ts';

const ICONS = { 'not-started': CircleDashed, 'in-progress': Loader, completed: CircleCheck } as const;

// Each status differs by icon and by fill (solid, striped, outline), so colour is never the only cue.
const CELL: Record<TimelineTaskStatus, string> = {
  completed:
    'border-emerald-800 bg-emerald-700 text-white dark:border-emerald-300 dark:bg-emerald-400 dark:text-slate-950',
  'in-progress':
    'border-sky-800 text-sky-950 bg-[repeating-linear-gradient(135deg,var(--color-sky-200)_0_6px,var(--color-sky-100)_6px_12px)] dark:border-sky-300 dark:text-sky-50 dark:bg-[repeating-linear-gradient(135deg,var(--color-sky-800)_0_6px,var(--color-sky-950)_6px_12px)]',
  'not-started':
    'border-dashed border-slate-500 bg-transparent text-slate-700 dark:border-slate-400 dark:text-slate-200',
};

function StatusMark({
  status,
  withText,
  span,
}: {
  status: TimelineTaskStatus;
  withText?: boolean;
  /** Words for screen readers: the months a bar covers. */ span?: string;
}) {
  const Icon = ICONS[status];
  return (
    <span
      className={clsx(
        'inline-flex min-h-8 w-full items-center justify-center gap-1 rounded border-2 px-1 text-xs font-semibold',
        CELL[status],
      )}
    >
      <Icon className="size-4 shrink-0" aria-hidden="true" />
      {withText ? (
        TIMELINE_TASK_STATUS_LABELS[status]
      ) : (
        <span className="sr-only">{TIMELINE_TASK_STATUS_LABELS[status]}</span>
      )}
      {span ? <span className="sr-only">, {span}</span> : null}
    </span>
  );
}

/** The legend of the chart's three marks. */
function TimelineLegend() {
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

// Month headings are short ('Mar' over '2026') so a year's plan fits the card at 1280 px; screen
// readers get the full name from the heading's label.

/**
 * A task's row of cells: empty months, then one cell spanning the months it runs (its bar), then empty
 * months. The axis always holds a task's months side by side (timelineMonths), so the bar is one run.
 */
function TaskCells({ task, months }: { task: Timeline['tasks'][number]; months: string[] }) {
  const start = months.indexOf(task.month);
  const count = taskMonthCount(task);
  if (start < 0) return months.map((m) => <td key={m} className="min-w-12 px-1 py-2" />);
  const span = Math.min(count, months.length - start);
  const end = months[start + span - 1];
  const words =
    span > 1
      ? `${formatMonth(task.month, 'long')} to ${formatMonth(end, 'long')}, ${span} months`
      : undefined;
  return (
    <>
      {months.slice(0, start).map((m) => (
        <td key={m} className="min-w-12 px-1 py-2" />
      ))}
      <td colSpan={span} className="min-w-12 px-1 py-2 text-center" data-months={span}>
        <StatusMark status={task.status} span={words} />
      </td>
      {months.slice(start + span).map((m) => (
        <td key={m} className="min-w-12 px-1 py-2" />
      ))}
    </>
  );
}

/** Whether the scroller has more to show to the right, kept current as it scrolls and resizes (and when `content` changes). */
function useSideways(ref: RefObject<HTMLDivElement | null>, content: unknown) {
  const [edges, setEdges] = useState({ overflowing: false, atEnd: true });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const overflowing = el.scrollWidth > el.clientWidth + 1;
      const next = { overflowing, atEnd: el.scrollLeft + el.clientWidth >= el.scrollWidth - 1 };
      setEdges((prev) => (prev.overflowing === next.overflowing && prev.atEnd === next.atEnd ? prev : next));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    if (el.firstElementChild) observer?.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [ref, content]);
  return edges;
}

// The scroller is `relative` so the screen-reader-only texts (absolutely positioned) inside it are
// clipped by it too, instead of widening the whole page on a phone.
/**
 * A timeline drawn as a month-by-task chart: one row per task, one column per month, the task's
 * bar across the months it runs. A real table, so screen readers announce task, month and status together.
 * Up to a year fits the card on a desktop; a longer plan (or a phone) scrolls sideways, with the
 * task column kept in view, a shaded edge and a line saying so, and the arrow keys once it has focus.
 */
export function TimelineChart({
  timeline,
  preview,
}: {
  timeline: Pick<Timeline, 'projectTitle' | 'tasks'>;
  /** Staff's live copy beside the editor: named apart from the saved chart. */
  preview?: boolean;
}) {
  const name = preview ? `Preview of ${timeline.projectTitle}` : timeline.projectTitle;
  const months = timelineMonths(timeline.tasks);
  const scroller = useRef<HTMLDivElement>(null);
  const { overflowing, atEnd } = useSideways(scroller, timeline.tasks);
  const hintId = useId();
  if (timeline.tasks.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">No tasks planned yet.</p>;
  }
  return (
    <div className="grid min-w-0 grid-cols-1 gap-3">
      <TimelineLegend />
      {overflowing ? (
        <p id={hintId} className="flex items-center gap-1 text-xs text-slate-700 dark:text-slate-300">
          <MoveHorizontal className="size-4 shrink-0" aria-hidden="true" />
          Scroll sideways to see all {months.length} months (or focus the chart and use the arrow keys).
        </p>
      ) : null}
      <div className="relative min-w-0">
        <div
          ref={scroller}
          className="relative overflow-x-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:border-slate-700 dark:focus-visible:outline-sky-300"
          tabIndex={0}
          role="region"
          aria-label={`Timeline: ${name}`}
          aria-describedby={overflowing ? hintId : undefined}
        >
          <table className="w-full min-w-max border-collapse text-sm">
            <caption className="sr-only">{name}: tasks by month</caption>
            <thead>
              <tr className="bg-slate-50 dark:bg-slate-800">
                <th
                  scope="col"
                  className="sticky left-0 z-10 bg-slate-50 px-3 py-2 text-left font-semibold shadow-[1px_0_0_var(--color-slate-300)] dark:bg-slate-800 dark:shadow-[1px_0_0_var(--color-slate-600)]"
                >
                  Task
                </th>
                {months.map((m) => (
                  <th key={m} scope="col" aria-label={formatMonth(m, 'long')} className="min-w-12 px-1 py-2 text-center leading-tight font-semibold whitespace-nowrap">
                    <span className="block">{formatMonth(m, 'short')}</span>{' '}
                    <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">{m.slice(0, 4)}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {timeline.tasks.map((task, index) => (
                <tr key={`${task.task}-${index}`} className="border-t border-slate-200 dark:border-slate-700">
                  <th
                    scope="row"
                    className="sticky left-0 z-10 max-w-36 bg-white px-3 py-2 text-left font-medium break-words shadow-[1px_0_0_var(--color-slate-300)] sm:max-w-48 dark:bg-slate-900 dark:shadow-[1px_0_0_var(--color-slate-600)]"
                  >
                    {task.task}
                    <span className="block text-xs font-normal text-slate-600 dark:text-slate-300">
                      {TIMELINE_TASK_STATUS_LABELS[task.status]}
                    </span>
                  </th>
                  <TaskCells task={task} months={months} />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {/* A shaded edge where more of the chart waits, so a cut-off look never reads as the end. */}
        {overflowing && !atEnd ? (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-px right-px w-8 rounded-r-lg bg-gradient-to-l from-slate-900/20 to-transparent dark:from-black/60"
          />
        ) : null}
      </div>
    </div>
  );
}
