import { useId, useState, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import type { CountLimits } from './count-limits.ts';
import { FixedCount, ItemButtons, ListMessage, move, nextKey, useAnnouncer, useFocusAfterRender, useItemKeys } from './list-editor-parts.tsx';

type Doc = Record<string, unknown>;

/** The words a record is known by: its name or title (or theme, quote, value), else its place. */
function recordName(record: Doc, singular: string, index: number): string {
  for (const key of ['name', 'title', 'theme', 'value', 'quote']) {
    const v = record[key];
    if (typeof v === 'string' && v.trim()) return v.trim().length > 60 ? `${v.trim().slice(0, 57)}…` : v.trim();
  }
  return `${singular} ${index + 1}`;
}

/**
 * A list of records: each one a form (drawn by `renderFields`) under its heading, with Move up,
 * Move down and Remove (asked again first); 'Add' appends an empty record and moves the focus to it.
 */
export function RecordList({
  limits,
  label,
  singular,
  path,
  value,
  errors,
  emptyRecord,
  renderFields,
  onChange,
}: {
  limits: CountLimits;
  label: string;
  singular: string;
  path: string;
  value: Doc[];
  errors: Record<string, string>;
  emptyRecord: () => Doc;
  renderFields: (record: Doc, prefix: string, onChange: (record: Doc) => void) => ReactNode;
  onChange: (list: Doc[]) => void;
}) {
  const id = useId();
  const keys = useItemKeys(value.length);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { say, region } = useAnnouncer();
  const focus = useFocusAfterRender();
  const listMessage = errors[path];
  const lower = singular.toLowerCase();
  const count = (n: number) => `${n} ${n === 1 ? lower : `${lower}s`}`;

  const moveTo = (from: number, to: number) => {
    const key = keys.current[from];
    const name = recordName(value[from], singular, from);
    keys.current = move(keys.current, from, to);
    onChange(move(value, from, to));
    focus(to < from ? [`${id}-${key}-up`, `${id}-${key}-down`] : [`${id}-${key}-down`, `${id}-${key}-up`]);
    say(`${name} moved to position ${to + 1} of ${value.length}.`);
  };
  const remove = (index: number) => {
    const name = recordName(value[index], singular, index);
    const after = keys.current[index + 1] ?? keys.current[index - 1];
    keys.current = keys.current.filter((_, i) => i !== index);
    setConfirming(null);
    onChange(value.filter((_, i) => i !== index));
    focus(after ? [`${id}-${after}-heading`] : [`${id}-add`]);
    say(`${name} removed. ${count(value.length - 1)} left.`);
  };
  const add = () => {
    const key = nextKey();
    keys.current = [...keys.current, key];
    onChange([...value, emptyRecord()]);
    focus([`${id}-${key}-heading`]);
    say(`${singular} ${value.length + 1} added at the end.`);
  };

  return (
    <fieldset
      className="rounded-md border border-slate-300 p-3 sm:p-4 dark:border-slate-700"
      aria-describedby={listMessage ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-sm font-semibold">
        {label} <span className="font-normal text-slate-600 dark:text-slate-400">({count(value.length)})</span>
      </legend>
      <FixedCount limits={limits} what={count(limits.min)} />
      <ListMessage id={`${id}-error`} message={listMessage} />
      <ol className="mt-2 space-y-4">
        {value.map((record, i) => {
          const key = keys.current[i];
          const base = `${id}-${key}`;
          const name = recordName(record, singular, i);
          const itemMessage = errors[`${path}.${i}`];
          return (
            <li
              key={key}
              aria-labelledby={`${base}-heading`}
              className="rounded-md border border-slate-200 bg-slate-50 p-3 sm:p-4 dark:border-slate-700 dark:bg-slate-950"
            >
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <h3 id={`${base}-heading`} tabIndex={-1} className="text-base font-semibold break-words">
                  {i + 1}. {name}
                </h3>
                <ItemButtons
                  base={base}
                  index={i}
                  count={value.length}
                  name={name}
                  removable={value.length > limits.min}
                  movable={!limits.fixedOrder}
                  onMove={(to) => moveTo(i, to)}
                  onRemove={() => {
                    setConfirming(key);
                    focus([`${base}-keep`]);
                  }}
                />
              </div>
              {confirming === key ? (
                <div
                  role="group"
                  aria-labelledby={`${base}-confirm`}
                  className="mb-3 rounded-md border border-red-300 bg-red-50 p-3 dark:border-red-800 dark:bg-red-950"
                >
                  <p id={`${base}-confirm`} className="text-sm font-medium text-red-900 dark:text-red-100">
                    Remove {name} from the draft? Visitors keep seeing it until you publish.
                  </p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <button type="button" className={`${buttonClass('danger')} text-sm`} onClick={() => remove(i)}>
                      Yes, remove
                    </button>
                    <button
                      id={`${base}-keep`}
                      type="button"
                      className={`${buttonClass('secondary')} text-sm`}
                      onClick={() => {
                        setConfirming(null);
                        focus([`${base}-remove`]);
                      }}
                    >
                      Keep it
                    </button>
                  </div>
                </div>
              ) : null}
              <ListMessage id={`${base}-error`} message={itemMessage} />
              {renderFields(record, `${path}.${i}`, (next) => onChange(value.map((r, j) => (j === i ? next : r))))}
            </li>
          );
        })}
      </ol>
      {value.length < limits.max ? (
        <button id={`${id}-add`} type="button" className={`${buttonClass('secondary')} mt-4`} onClick={add}>
          <Plus className="size-4" aria-hidden="true" />
          Add {lower}
        </button>
      ) : null}
      {region}
    </fieldset>
  );
}
