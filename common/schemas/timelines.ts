import '../zod-setup.ts';
import { z } from 'zod';
import { singleLineText, storableText } from './text.ts';
import { okResponse } from './ok-response.ts';

export const TIMELINE_TASK_STATUSES = ['not-started', 'in-progress', 'completed'] as const;
export type TimelineTaskStatus = (typeof TIMELINE_TASK_STATUSES)[number];

export const TIMELINE_TASK_STATUS_LABELS: Record<TimelineTaskStatus, string> = {
  'not-started': 'Not started',
  'in-progress': 'In progress',
  completed: 'Completed',
};

/** More tasks than this in one record is a mistake, not a plan. */
const TIMELINE_TASKS_MAX = 200;

/** Months are written YYYY-MM (the value of an <input type="month">). */
const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A chart wider than this many months would be unreadable: then only months with tasks are shown. */
const TIMELINE_CHART_MONTHS_MAX = 60;

/**
 * The longest task, in months (five years): the chart's axis limit (decision 052), so one task's bar
 * always fits an axis of its own (decision 253).
 */
const TIMELINE_TASK_MONTHS_MAX = TIMELINE_CHART_MONTHS_MAX;

/** Months counted from year 0, so two months subtract (`monthIndex('2026-03') - monthIndex('2026-01') === 2`). */
const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOfIndex = (n: number) => `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;

/** How many months a task runs, its first and last included (an end before the start counts as one). */
export const taskMonthCount = (t: { month: string; endMonth?: string }) =>
  Math.max(1, monthIndex(t.endMonth ?? t.month) - monthIndex(t.month) + 1);

const monthField = () => storableText().trim().regex(MONTH_PATTERN, 'Month: use YYYY-MM, such as 2026-03');

/**
 * A task as staff send it. `month` is the specification's field and stays the first month; `endMonth`
 * is the last (absent: the task is one month long, as every task of the old shape is). Status is what
 * counts: it defaults to not-started (or completed when only `completed: true` is sent), and
 * `completed` always follows it.
 */
const timelineTaskInputSchema = z
  .object({
    task: singleLineText('Task').min(1, 'Task is required').max(200),
    month: monthField(),
    endMonth: monthField().optional(),
    status: z.enum(TIMELINE_TASK_STATUSES).optional(),
    completed: z.boolean().optional(),
  })
  .superRefine((t, ctx) => {
    if (t.endMonth === undefined) return;
    const span = monthIndex(t.endMonth) - monthIndex(t.month) + 1;
    if (span < 1) ctx.addIssue({ code: 'custom', path: ['endMonth'], message: 'End month: use the start month or a later one' });
    else if (span > TIMELINE_TASK_MONTHS_MAX)
      ctx.addIssue({ code: 'custom', path: ['endMonth'], message: `End month: a task runs at most ${TIMELINE_TASK_MONTHS_MAX} months (split a longer one)` });
  })
  .transform((t) => {
    const status: TimelineTaskStatus = t.status ?? (t.completed ? 'completed' : 'not-started');
    return { task: t.task, month: t.month, endMonth: t.endMonth ?? t.month, status, completed: status === 'completed' };
  });

const timelineTaskSchema = z.object({
  task: z.string(),
  month: z.string(),
  endMonth: z.string(),
  completed: z.boolean(),
  status: z.enum(TIMELINE_TASK_STATUSES),
});
export type TimelineTask = z.infer<typeof timelineTaskSchema>;
/** A task as the jsonb column holds it: rows saved before end months existed have none (one month long). */
export type StoredTimelineTask = Omit<TimelineTask, 'endMonth'> & { endMonth?: string };

const timelineFields = {
  projectTitle: singleLineText('Project title').min(1, 'Project title is required').max(200),
  tasks: z.array(timelineTaskInputSchema).max(TIMELINE_TASKS_MAX),
};

export const createTimelineBodySchema = z.object({ projectId: z.uuid(), ...timelineFields });
export type CreateTimelineBody = z.input<typeof createTimelineBodySchema>;

export const updateTimelineBodySchema = z.object(timelineFields);
export type UpdateTimelineBody = z.input<typeof updateTimelineBodySchema>;

const timelineSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  projectTitle: z.string(),
  tasks: z.array(timelineTaskSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Timeline = z.infer<typeof timelineSchema>;

export const timelineResponseSchema = okResponse({ timeline: timelineSchema });
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;

export const timelineListResponseSchema = okResponse({ timelines: z.array(timelineSchema) });
export type TimelineListResponse = z.infer<typeof timelineListResponseSchema>;

export const timelineIdParamsSchema = z.object({ id: z.uuid() });
export const timelineProjectParamsSchema = z.object({ projectId: z.uuid() });


/**
 * The months of the month-by-task chart, in order: every month from the first task's start to the
 * last task's end (a quiet month still takes its place on a time axis). Longer than the limit, only
 * the months some task runs in are shown: each task's own months stay side by side, so its bar is
 * never broken (decision 253).
 */
export function timelineMonths(tasks: readonly { month: string; endMonth?: string }[]): string[] {
  if (tasks.length === 0) return [];
  const starts = tasks.map((t) => monthIndex(t.month));
  const ends = tasks.map((t, i) => starts[i] + taskMonthCount(t) - 1);
  const first = Math.min(...starts);
  const last = Math.max(...ends);
  if (last - first + 1 <= TIMELINE_CHART_MONTHS_MAX) return Array.from({ length: last - first + 1 }, (_, i) => monthOfIndex(first + i));
  const used = new Set<number>();
  starts.forEach((start, i) => {
    for (let n = start; n <= ends[i]; n++) used.add(n);
  });
  return [...used].sort((a, b) => a - b).map(monthOfIndex);
}
