import { CheckCircle2 } from 'lucide-react';
import { DEPENDENCIES_MAX, type Milestone } from '../../../common/schemas/invoices.ts';
import { TIMELINE_TASK_STATUS_LABELS, type Timeline } from '../../../common/schemas/timelines.ts';

type Dependency = Milestone['dependsOn'][number];

const same = (a: { timelineId: string; task: string }, b: { timelineId: string; task: string }) => a.timelineId === b.timelineId && a.task === b.task;

interface Option {
  task: string;
  /** The task's status on its timeline; none for a dependency no longer on it. */
  status: Timeline['tasks'][number]['status'] | null;
}
interface Group {
  timelineId: string;
  title: string;
  options: Option[];
}

/**
 * The choices of one milestone: each timeline's tasks (a task named twice once), then the current
 * dependencies no timeline holds any more, in their timeline's group (or one of their own when the
 * timeline itself is gone), so they can still be unticked (and ticked again, until the plan is saved).
 */
function groupsOf(timelines: readonly Timeline[] | undefined, value: readonly Dependency[]): Group[] {
  const groups: Group[] = (timelines ?? []).map((t) => {
    const seen = new Set<string>();
    const options: Option[] = [];
    for (const task of t.tasks) {
      if (seen.has(task.task)) continue;
      seen.add(task.task);
      options.push({ task: task.task, status: task.status });
    }
    return { timelineId: t._id, title: t.projectTitle, options };
  });
  for (const d of value) {
    let group = groups.find((g) => g.timelineId === d.timelineId);
    if (group?.options.some((o) => o.task === d.task)) continue;
    if (!group) {
      group = { timelineId: d.timelineId, title: d.timelineTitle ?? 'A removed timeline', options: [] };
      groups.push(group);
    }
    group.options.push({ task: d.task, status: timelines ? null : d.done ? 'completed' : null });
  }
  return groups;
}

/**
 * A milestone's "Depends on" control (issue 26): the project's timeline tasks as checkboxes grouped by
 * timeline, in a disclosure that shows how many are ticked. A dependency whose task has left its
 * timeline stays listed, ticked and marked, so staff can remove it.
 */
export function DependsOnPicker({
  milestoneLabel,
  value,
  saved,
  onChange,
  timelines,
  loading,
  loadError,
  error,
}: {
  milestoneLabel: string;
  value: Dependency[];
  /** The dependencies as last saved: one unticked stays listed while the editor is open. */
  saved: readonly Dependency[];
  onChange: (next: Dependency[]) => void;
  timelines: readonly Timeline[] | undefined;
  loading: boolean;
  loadError: string | null;
  error?: string;
}) {
  const groups = groupsOf(timelines, [...value, ...saved.filter((d) => !value.some((v) => same(v, d)))]);
  const hasTasks = (timelines ?? []).some((t) => t.tasks.length > 0);
  const full = value.length >= DEPENDENCIES_MAX;

  const toggle = (g: Group, o: Option, checked: boolean) => {
    const key = { timelineId: g.timelineId, task: o.task };
    if (!checked) return onChange(value.filter((d) => !same(d, key)));
    if (value.some((d) => same(d, key))) return;
    onChange([...value, { ...key, timelineTitle: g.title, onTimeline: o.status !== null, done: o.status === 'completed' }]);
  };

  return (
    <details className="text-sm" open={error ? true : undefined}>
      <summary className="min-h-11 cursor-pointer rounded-md py-2.5 font-medium text-brand-700 dark:text-sky-300">
        Depends on ({value.length})<span className="sr-only">, {milestoneLabel}</span>
      </summary>
      <div className="mt-1 grid gap-2">
        {loading ? <p className="text-slate-700 dark:text-slate-300">Loading timeline tasks...</p> : null}
        {loadError ? <p className="text-red-700 dark:text-red-300">{loadError}</p> : null}
        {timelines && !hasTasks ? <p className="text-slate-700 dark:text-slate-300">No timeline tasks yet</p> : null}
        {groups
          .filter((g) => g.options.length > 0)
          .map((g) => (
            <fieldset key={g.timelineId} className="grid gap-1 rounded-md border border-slate-200 p-2 dark:border-slate-700">
              <legend className="px-1 text-xs font-semibold text-slate-800 dark:text-slate-200">{g.title}</legend>
              {g.options.map((o) => {
                const checked = value.some((d) => same(d, { timelineId: g.timelineId, task: o.task }));
                const gone = timelines !== undefined && o.status === null;
                return (
                  <label key={o.task} className="flex min-h-11 cursor-pointer items-center gap-2 rounded px-1 hover:bg-slate-50 dark:hover:bg-slate-800">
                    <input
                      type="checkbox"
                      className="size-5 shrink-0 accent-brand-700"
                      checked={checked}
                      disabled={!checked && full}
                      onChange={(e) => toggle(g, o, e.target.checked)}
                    />
                    <span className="min-w-0 break-words">
                      {o.task}
                      {o.status === 'completed' ? (
                        <>
                          {' '}
                          <span className="whitespace-nowrap text-emerald-800 dark:text-emerald-300">
                            <CheckCircle2 className="mr-0.5 inline size-3.5" aria-hidden="true" />({TIMELINE_TASK_STATUS_LABELS.completed.toLowerCase()})
                          </span>
                        </>
                      ) : o.status ? (
                        <> <span className="whitespace-nowrap text-slate-700 dark:text-slate-300">({TIMELINE_TASK_STATUS_LABELS[o.status].toLowerCase()})</span></>
                      ) : null}
                      {gone ? <> <em className="text-slate-700 dark:text-slate-300">(no longer on the timeline)</em></> : null}
                    </span>
                  </label>
                );
              })}
            </fieldset>
          ))}
        {full ? <p className="text-xs text-slate-700 dark:text-slate-300">At most {DEPENDENCIES_MAX} tasks per milestone.</p> : null}
        {error ? <p className="text-red-700 dark:text-red-300">{error}</p> : null}
      </div>
    </details>
  );
}
