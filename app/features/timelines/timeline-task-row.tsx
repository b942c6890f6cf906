import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import {
  TIMELINE_TASK_STATUS_LABELS,
  TIMELINE_TASK_STATUSES,
  type TimelineTaskStatus,
} from '../../../common/schemas/timelines.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass } from '../../components/forms/field-classes.ts';

export interface TaskRow {
  key: number;
  task: string;
  month: string;
  endMonth: string;
  status: TimelineTaskStatus;
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const isMonth = (m: string) => MONTH.test(m);
const monthIndex = (m: string) => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;
const monthOfIndex = (n: number) => `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;

/** Both months given and the end before the start (the schema refuses it; the row says so at once). */
export const endEarlierThanStart = (row: TaskRow) =>
  isMonth(row.month) && isMonth(row.endMonth) && row.endMonth < row.month;

/**
 * A new start month moves the end with it, so a task keeps its length when it is moved; an end that
 * was never set stays unset (one month).
 */
function withStart(row: TaskRow, month: string): Partial<TaskRow> {
  if (!isMonth(row.month) || !isMonth(row.endMonth) || !isMonth(month) || row.endMonth < row.month) return { month };
  return { month, endMonth: monthOfIndex(monthIndex(month) + monthIndex(row.endMonth) - monthIndex(row.month)) };
}

const small = 'mb-1 block text-xs font-medium';
const iconButton = `${buttonClass('ghost')} px-3`;

/**
 * One task of the timeline form: its name, start and end months and status, then move up, move down
 * and remove. Moving is by buttons, so the keyboard and screen readers can reorder as well as a mouse.
 */
export function TimelineTaskRow({
  formId,
  row,
  index,
  count,
  onChange,
  onMove,
  onRemove,
}: {
  formId: string;
  row: TaskRow;
  index: number;
  count: number;
  onChange: (patch: Partial<TaskRow>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const id = (what: string) => `${formId}-${what}-${row.key}`;
  const backwards = endEarlierThanStart(row);
  return (
    <li className="grid grid-cols-2 items-end gap-2 rounded-lg border border-slate-200 p-2 @xl:grid-cols-3 dark:border-slate-700">
      <div className="col-span-2 @xl:col-span-3">
        <label htmlFor={id('task')} className={small}>
          Task {n}
        </label>
        <input
          id={id('task')}
          className={inputClass}
          value={row.task}
          onChange={(e) => onChange({ task: e.target.value })}
        />
      </div>
      <div>
        <label htmlFor={id('month')} className={small}>
          Start month of task {n}
        </label>
        <input
          id={id('month')}
          type="month"
          placeholder="2026-03"
          className={inputClass}
          value={row.month}
          onChange={(e) => onChange(withStart(row, e.target.value))}
        />
      </div>
      <div>
        <label htmlFor={id('end')} className={small}>
          End of task {n}
        </label>
        <input
          id={id('end')}
          type="month"
          placeholder="2026-05"
          min={isMonth(row.month) ? row.month : undefined}
          className={inputClass}
          value={row.endMonth}
          aria-invalid={backwards || undefined}
          aria-describedby={backwards ? id('end-error') : undefined}
          onChange={(e) => onChange({ endMonth: e.target.value })}
        />
      </div>
      <div className="col-span-2 @xl:col-span-1">
        <label htmlFor={id('status')} className={small}>
          Status of task {n}
        </label>
        <select
          id={id('status')}
          className={inputClass}
          value={row.status}
          onChange={(e) => onChange({ status: e.target.value as TimelineTaskStatus })}
        >
          {TIMELINE_TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {TIMELINE_TASK_STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {backwards ? (
        <p
          id={id('end-error')}
          className="col-span-2 text-sm font-medium text-red-700 @xl:col-span-3 dark:text-red-300"
        >
          The end is before the start: choose the start month or a later one.
        </p>
      ) : null}
      <div className="col-span-2 flex flex-wrap justify-end gap-1 @xl:col-span-3">
        <button
          type="button"
          id={id('up')}
          className={iconButton}
          disabled={index === 0}
          onClick={() => onMove(-1)}
          aria-label={`Move task ${n} up`}
        >
          <ArrowUp className="size-4" aria-hidden="true" />
        </button>
        <button
          type="button"
          id={id('down')}
          className={iconButton}
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`Move task ${n} down`}
        >
          <ArrowDown className="size-4" aria-hidden="true" />
        </button>
        <button type="button" className={buttonClass('danger')} onClick={onRemove} aria-label={`Remove task ${n}`}>
          <Trash2 className="size-4" aria-hidden="true" />
          <span aria-hidden="true">Remove</span>
        </button>
      </div>
    </li>
  );
}
