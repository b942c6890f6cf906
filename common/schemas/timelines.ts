import '../zod-setup.ts';
import { z } from 'zod';
import { singleLineText, storableText } from './text.ts';

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

/**
 * A task as staff send it. Status is what counts: it defaults to not-started (or completed when only
 * `completed: true` is sent), and `completed` always follows it.
 */
const timelineTaskInputSchema = z
  .object({
    task: singleLineText('Task').min(1, 'Task is required').max(200),
    month: storableText().trim().regex(MONTH_PATTERN, 'Month: use YYYY-MM, such as 2026-03'),
    status: z.enum(TIMELINE_TASK_STATUSES).optional(),
    completed: z.boolean().optional(),
  })
  .transform((t) => {
    const status: TimelineTaskStatus = t.status ?? (t.completed ? 'completed' : 'not-started');
    return { task: t.task, month: t.month, status, completed: status === 'completed' };
  });

const timelineTaskSchema = z.object({
  task: z.string(),
  month: z.string(),
  completed: z.boolean(),
  status: z.enum(TIMELINE_TASK_STATUSES),
});
export type TimelineTask = z.infer<typeof timelineTaskSchema>;

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

export const timelineResponseSchema = z.object({ success: z.literal(true), timeline: timelineSchema });
export type TimelineResponse = z.infer<typeof timelineResponseSchema>;

export const timelineListResponseSchema = z.object({ success: z.literal(true), timelines: z.array(timelineSchema) });
export type TimelineListResponse = z.infer<typeof timelineListResponseSchema>;

export const timelineIdParamsSchema = z.object({ id: z.uuid() });
export const timelineProjectParamsSchema = z.object({ projectId: z.uuid() });

/** A chart wider than this many months would be unreadable: then only months with tasks are shown. */
const TIMELINE_CHART_MONTHS_MAX = 60;

/**
 * The months of the month-by-task chart, in order: every month from the first task's to the last
 * task's (a quiet month still takes its place on a time axis).
 */
export function timelineMonths(tasks: readonly { month: string }[]): string[] {
  const used = [...new Set(tasks.map((t) => t.month))].sort();
  if (used.length === 0) return [];
  const index = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
  const first = index(used[0]);
  const last = index(used[used.length - 1]);
  if (last - first + 1 > TIMELINE_CHART_MONTHS_MAX) return used;
  return Array.from({ length: last - first + 1 }, (_, i) => {
    const n = first + i;
    return `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
  });
}
