import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Plus, Save } from 'lucide-react';
import { taskMonthCount, updateTimelineBodySchema, type Timeline } from '../../../common/schemas/timelines.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { InputField } from '../../components/forms/fields.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { TimelineChart } from './timeline-chart.tsx';
import { endEarlierThanStart, isMonth, TimelineTaskRow, type TaskRow } from './timeline-task-row.tsx';
import { useProjectTimelines } from '../../lib/project-timelines.ts';
import { useSaveTimeline } from './timelines-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('timeline');

type Row = TaskRow;

let rowKey = 0;
const newRow = (month = ''): Row => ({ key: ++rowKey, task: '', month, endMonth: '', status: 'not-started' });

/**
 * What a save would send: the title and the rows that carry a task or a month, in the form's order.
 * An end month left empty is not sent: the task is one month long (the old shape, decision 253).
 */
function draftOf(title: string, rows: Row[]) {
  return {
    projectTitle: title,
    tasks: rows
      .filter((r) => r.task.trim() || r.month)
      .map(({ task, month, endMonth, status }) =>
        endMonth ? { task, month, endMonth, status } : { task, month, status },
      ),
  };
}

/**
 * The chart the client would see if the draft were saved now: the rows complete enough to draw (a
 * task and a start month); an end that cannot be saved draws the start month alone.
 */
function previewOf(title: string, rows: Row[]): Pick<Timeline, 'projectTitle' | 'tasks'> {
  return {
    projectTitle: title.trim(),
    tasks: rows
      .filter((r) => r.task.trim() && isMonth(r.month))
      .map((r) => {
        const endMonth =
          isMonth(r.endMonth) && !endEarlierThanStart(r) && taskMonthCount(r) <= 60 ? r.endMonth : r.month;
        return { task: r.task.trim(), month: r.month, endMonth, status: r.status, completed: r.status === 'completed' };
      }),
  };
}

const rowsOf = (timeline: Timeline | null): Row[] =>
  timeline && timeline.tasks.length > 0
    ? timeline.tasks.map((t) => ({
        key: ++rowKey,
        task: t.task,
        month: t.month,
        endMonth: t.endMonth,
        status: t.status,
      }))
    : [newRow()];
const sameDraft = (a: ReturnType<typeof draftOf>, b: ReturnType<typeof draftOf>) =>
  JSON.stringify(a) === JSON.stringify(b);
const savedDraft = (timeline: Timeline | null, defaultTitle: string) =>
  draftOf(timeline?.projectTitle ?? defaultTitle, rowsOf(timeline));

/**
 * One timeline record as a form: title, then a row per task (task, start and end months, status),
 * beside the chart the client would see, drawn from the draft as it is typed.
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
  // After a move the focus stays on the moved task's buttons, and a status line says where it went.
  const [moved, setMoved] = useState<{ key: number; by: -1 | 1; text: string } | null>(null);
  const move = (key: number, by: -1 | 1) => {
    const from = rows.findIndex((r) => r.key === key);
    const to = from + by;
    if (from < 0 || to < 0 || to >= rows.length) return;
    const next = [...rows];
    [next[from], next[to]] = [next[to], next[from]];
    setRows(next);
    const name = rows[from].task.trim() || `Task ${from + 1}`;
    setMoved({ key, by, text: `${name} moved to position ${to + 1} of ${rows.length}` });
  };
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!moved) return;
    const button = (dir: 'up' | 'down') =>
      formRef.current?.querySelector<HTMLButtonElement>(`[id="${id}-${dir}-${moved.key}"]`);
    const same = button(moved.by < 0 ? 'up' : 'down');
    (same && !same.disabled ? same : button(moved.by < 0 ? 'down' : 'up'))?.focus();
  }, [moved, id]);
  // The chart follows the typing; deferred, so a long plan never slows the keystrokes down.
  const preview = useDeferredValue(useMemo(() => previewOf(title || defaultTitle, rows), [title, defaultTitle, rows]));

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
    <div className="@container">
      <div className="grid grid-cols-1 items-start gap-4 @3xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <form
          ref={formRef}
          onSubmit={onSubmit}
          noValidate
          className="@container grid min-w-0 grid-cols-1 gap-3"
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
          <InputField label="Timeline title" value={title} onChange={(e) => setTitle(e.target.value)} />
          <fieldset className="min-w-0">
            <legend className={labelClass}>Tasks</legend>
            <p className="mb-2 text-xs text-slate-600 dark:text-slate-300">
              In the order the client reads them; move a task with its arrows. Leave the end empty for a one-month task.
            </p>
            <ol className="grid min-w-0 grid-cols-1 gap-2">
              {rows.map((row, index) => (
                <TimelineTaskRow
                  key={row.key}
                  formId={id}
                  row={row}
                  index={index}
                  count={rows.length}
                  onChange={(patch) => update(row.key, patch)}
                  onMove={(by) => move(row.key, by)}
                  onRemove={() => setRows((list) => list.filter((r) => r.key !== row.key))}
                />
              ))}
            </ol>
            <p role="status" className="sr-only">
              {moved?.text ?? ''}
            </p>
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
        <section aria-label="What the client sees" className="grid min-w-0 gap-2 @3xl:sticky @3xl:top-4">
          <h4 className="text-sm font-semibold">What the client sees</h4>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            Follows your typing; the client sees it once you save.
          </p>
          <TimelineChart timeline={preview} preview />
        </section>
      </div>
    </div>
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
