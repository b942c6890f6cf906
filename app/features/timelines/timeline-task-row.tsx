import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import {
  TIMELINE_TASK_STATUS_LABELS,
  TIMELINE_TASK_STATUSES,
  type TimelineTaskStatus,
} from '../../../common/schemas/timelines.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField } from '../../components/forms/fields.tsx';

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

const STATUS_OPTIONS = TIMELINE_TASK_STATUSES.map((s) => ({ value: s, label: TIMELINE_TASK_STATUS_LABELS[s] }));
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
    <li className="grid grid-cols-2 items-start gap-2 rounded-lg border border-slate-200 p-2 @xl:grid-cols-3 dark:border-slate-700">
      <InputField compact className="col-span-2 @xl:col-span-3" label={`Task ${n}`} value={row.task} onChange={(e) => onChange({ task: e.target.value })} />
      <InputField
        compact
        label={`Start month of task ${n}`}
        type="month"
        placeholder="2026-03"
        value={row.month}
        onChange={(e) => onChange(withStart(row, e.target.value))}
      />
      <InputField
        compact
        label={`End of task ${n}`}
        type="month"
        placeholder="2026-05"
        min={isMonth(row.month) ? row.month : undefined}
        value={row.endMonth}
        error={backwards ? 'The end is before the start: choose the start month or a later one.' : undefined}
        onChange={(e) => onChange({ endMonth: e.target.value })}
      />
      <SelectField
        compact
        className="col-span-2 @xl:col-span-1"
        label={`Status of task ${n}`}
        options={STATUS_OPTIONS}
        value={row.status}
        onChange={(e) => onChange({ status: e.target.value as TimelineTaskStatus })}
      />
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
