import { useId, useState, type FormEvent } from 'react';
import { Plus, Save, Trash2 } from 'lucide-react';
import {
  TIMELINE_TASK_STATUS_LABELS,
  TIMELINE_TASK_STATUSES,
  updateTimelineBodySchema,
  type Timeline,
  type TimelineTaskStatus,
} from '../../../common/schemas/timelines.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useProjectTimelines, useSaveTimeline } from './timelines-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('timeline');

interface Row {
  key: number;
  task: string;
  month: string;
  status: TimelineTaskStatus;
}

let rowKey = 0;
const newRow = (month = ''): Row => ({ key: ++rowKey, task: '', month, status: 'not-started' });

/** What a save would send: the title and the rows that carry a task or a month. */
function draftOf(title: string, rows: Row[]) {
  return {
    projectTitle: title,
    tasks: rows.filter((r) => r.task.trim() || r.month).map(({ task, month, status }) => ({ task, month, status })),
  };
}

const rowsOf = (timeline: Timeline | null): Row[] =>
  timeline && timeline.tasks.length > 0
    ? timeline.tasks.map((t) => ({ key: ++rowKey, task: t.task, month: t.month, status: t.status }))
    : [newRow()];
const sameDraft = (a: ReturnType<typeof draftOf>, b: ReturnType<typeof draftOf>) =>
  JSON.stringify(a) === JSON.stringify(b);
const savedDraft = (timeline: Timeline | null, defaultTitle: string) =>
  draftOf(timeline?.projectTitle ?? defaultTitle, rowsOf(timeline));

/**
 * One timeline record as a form: title, then a row per task (task, month, status).
 *
 * A newer version of the record (saved by another staff member, arriving live) replaces the form only
 * when nothing was typed since the form last matched the server. Otherwise the draft stays, and a
 * notice offers the other version: Save keeps this one.
 */
function TimelineForm({
  projectId,
  timeline,
  defaultTitle,
}: {
  projectId: string;
  timeline: Timeline | null;
  defaultTitle: string;
}) {
  const id = useId();
  // The version the draft started from.
  const [base, setBase] = useState(timeline);
  const [title, setTitle] = useState(timeline?.projectTitle ?? defaultTitle);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(timeline));
  const save = useSaveTimeline();
  const update = (key: number, patch: Partial<Row>) =>
    setRows((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const draft = draftOf(title, rows);
  const adopt = (next: Timeline | null) => {
    setBase(next);
    setTitle(next?.projectTitle ?? defaultTitle);
    setRows(rowsOf(next));
  };
  const newer = timeline !== null && timeline.updatedAt !== base?.updatedAt;
  const untouched = sameDraft(draft, savedDraft(base, defaultTitle));
  const matchesNewer = newer && sameDraft(draft, savedDraft(timeline, defaultTitle));
  // Adjusting state to a new prop during render (React's documented pattern): no typed work is lost.
  if (newer && (untouched || matchesNewer)) adopt(timeline);
  const conflict = newer && !untouched && !matchesNewer;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    const body = draft;
    const parsed = updateTimelineBodySchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where =
        issue?.path[0] === 'tasks' && typeof issue.path[1] === 'number' ? `Task ${issue.path[1] + 1}: ` : '';
      toasts.show({
        title: 'Failed to save timeline',
        description: `${where}${issue?.message ?? ''}`,
        variant: 'destructive',
      });
      return;
    }
    try {
      const saved = await save.mutateAsync({ id: timeline?._id, body: { projectId, ...body } });
      // The form now shows what is stored, as the server normalised it.
      adopt(saved.timeline);
      toasts.show({ title: 'Timeline saved' });
    } catch (err) {
      toastFailure('Failed to save timeline', err);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid grid-cols-1 gap-3"
      aria-label={timeline ? `Timeline ${timeline.projectTitle}` : 'New timeline'}
    >
      {conflict ? (
        <div
          role="status"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          <p>Someone else saved this timeline while you were editing it. Save Timeline keeps your version.</p>
          <button type="button" className={`${buttonClass('secondary')} mt-2`} onClick={() => adopt(timeline)}>
            Show their version
          </button>
        </div>
      ) : null}
      <div>
        <label htmlFor={`${id}-title`} className={labelClass}>
          Timeline title
        </label>
        <input id={`${id}-title`} className={inputClass} value={title} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <fieldset className="grid min-w-0 grid-cols-1 gap-2">
        <legend className={labelClass}>Tasks</legend>
        {rows.map((row, index) => (
          <div
            key={row.key}
            className="grid grid-cols-2 items-end gap-2 rounded-lg border border-slate-200 p-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] dark:border-slate-700"
          >
            <div className="col-span-2 sm:col-span-3">
              <label htmlFor={`${id}-task-${row.key}`} className="mb-1 block text-xs font-medium">
                Task {index + 1}
              </label>
              <input
                id={`${id}-task-${row.key}`}
                className={inputClass}
                value={row.task}
                onChange={(e) => update(row.key, { task: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-month-${row.key}`} className="mb-1 block text-xs font-medium">
                Month of task {index + 1}
              </label>
              <input
                id={`${id}-month-${row.key}`}
                type="month"
                placeholder="2026-03"
                className={inputClass}
                value={row.month}
                onChange={(e) => update(row.key, { month: e.target.value })}
              />
            </div>
            <div>
              <label htmlFor={`${id}-status-${row.key}`} className="mb-1 block text-xs font-medium">
                Status of task {index + 1}
              </label>
              <select
                id={`${id}-status-${row.key}`}
                className={inputClass}
                value={row.status}
                onChange={(e) => update(row.key, { status: e.target.value as TimelineTaskStatus })}
              >
                {TIMELINE_TASK_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {TIMELINE_TASK_STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              className={`${buttonClass('danger')} col-span-2 sm:col-span-1`}
              onClick={() => setRows((list) => list.filter((r) => r.key !== row.key))}
              aria-label={`Remove task ${index + 1}`}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              <span className="sm:sr-only">Remove</span>
            </button>
          </div>
        ))}
      </fieldset>
      <div className="flex flex-wrap justify-between gap-2">
        <button
          type="button"
          className={buttonClass('secondary')}
          onClick={() => setRows((list) => [...list, newRow(list.at(-1)?.month ?? '')])}
        >
          <Plus className="size-4" aria-hidden="true" />
          Add task
        </button>
        <button type="submit" className={buttonClass('primary')} disabled={save.isPending}>
          <Save className="size-4" aria-hidden="true" />
          {save.isPending ? 'Saving Timeline...' : 'Save Timeline'}
        </button>
      </div>
    </form>
  );
}

/** Staff create and edit a project's timeline records. */
export function TimelineEditor({ project }: { project: { _id: string; name: string } }) {
  const timelines = useProjectTimelines(project._id);
  if (timelines.isPending) return <InlineLoading label="Loading timeline..." />;
  if (timelines.isError)
    return (
      <ErrorState title="Failed to load project data" error={timelines.error} onRetry={() => timelines.refetch()} />
    );
  const records = timelines.data.timelines;
  if (records.length === 0) {
    return (
      <div className="grid gap-2">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          No timeline yet: plan the tasks month by month and save.
        </p>
        <TimelineForm key={`new-${project._id}`} projectId={project._id} timeline={null} defaultTitle={project.name} />
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      {records.map((timeline) => (
        <TimelineForm key={timeline._id} projectId={project._id} timeline={timeline} defaultTitle={project.name} />
      ))}
    </div>
  );
}
