import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass } from '../../components/forms/field-classes.ts';
import type { CountLimits } from './count-limits.ts';

// The list editors of the website editor (issue 24, decision 291): a list of records, each a form of
// its own, and a list of texts, one input each. Both add, remove and move items; after a move the
// focus stays on the moved item's button and a live region says where it went, so a keyboard or
// screen reader user follows the item, not the position.

type Doc = Record<string, unknown>;

const small = `${buttonClass('secondary')} !min-h-11 !px-3 !py-1 text-sm`;

let counter = 0;
const nextKey = () => `k${(counter += 1)}`;

/** Stable keys for the items of `list`, moved, removed and added with them. */
function useItemKeys(length: number) {
  const keys = useRef<string[]>([]);
  if (keys.current.length !== length) keys.current = Array.from({ length }, nextKey);
  return keys;
}

const move = <T,>(list: readonly T[], from: number, to: number): T[] => {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
};

/** Polite announcements, read once each (the text changes even when the words repeat). */
function useAnnouncer() {
  const [text, setText] = useState('');
  const flip = useRef(false);
  const say = (words: string) => {
    flip.current = !flip.current;
    // A no-break space at the end makes a repeated sentence a change the screen reader reads again.
    setText(flip.current ? words : `${words}\u00a0`);
  };
  const region = (
    <div aria-live="polite" className="sr-only">
      {text}
    </div>
  );
  return { say, region };
}

/** Puts the focus, after the next render, on the element with this id (or the fallback when it is disabled or gone). */
function useFocusAfterRender() {
  const [target, setTarget] = useState<string[] | null>(null);
  useEffect(() => {
    if (!target) return;
    for (const id of target) {
      const el = document.getElementById(id) as HTMLButtonElement | null;
      if (el && !el.disabled) {
        el.focus();
        break;
      }
    }
    setTarget(null);
  }, [target]);
  return setTarget;
}

function ItemButtons({
  base,
  index,
  count,
  name,
  removable,
  movable,
  onMove,
  onRemove,
}: {
  base: string;
  index: number;
  count: number;
  name: string;
  /** False when the list is at the fewest items its schema allows: Remove would only be refused. */
  removable: boolean;
  /** False when the pages place each item by its position: a move would only be refused. */
  movable: boolean;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      {movable ? (
        <>
          <button
            id={`${base}-up`}
            type="button"
            className={small}
            disabled={index === 0}
            aria-label={`Move up: ${name}`}
            onClick={() => onMove(index - 1)}
          >
            <ArrowUp className="size-4" aria-hidden="true" />
            Move up
          </button>
          <button
            id={`${base}-down`}
            type="button"
            className={small}
            disabled={index === count - 1}
            aria-label={`Move down: ${name}`}
            onClick={() => onMove(index + 1)}
          >
            <ArrowDown className="size-4" aria-hidden="true" />
            Move down
          </button>
        </>
      ) : null}
      {removable ? (
        <button
          id={`${base}-remove`}
          type="button"
          className={`${buttonClass('danger')} !min-h-11 !px-3 !py-1 text-sm`}
          aria-label={`Remove: ${name}`}
          onClick={onRemove}
        >
          <Trash2 className="size-4" aria-hidden="true" />
          Remove
        </button>
      ) : null}
    </div>
  );
}

/** Says why a list of a fixed length has neither Add nor Remove. */
function FixedCount({ limits, what }: { limits: CountLimits; what: string }) {
  return limits.min === limits.max ? (
    <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
      The page shows exactly {what}: change them in place.
    </p>
  ) : null;
}

function ListMessage({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-800 dark:text-red-300">
      {message}
    </p>
  ) : null;
}

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

/** A list of texts, one input each, with Move up, Move down and Remove; 'Add' appends an empty one and focuses it. */
export function TextList({
  limits,
  label,
  singular,
  path,
  value,
  errors,
  long,
  onChange,
}: {
  limits: CountLimits;
  label: string;
  singular: string;
  path: string;
  value: string[];
  errors: Record<string, string>;
  long: boolean;
  onChange: (list: string[]) => void;
}) {
  const id = useId();
  const keys = useItemKeys(value.length);
  const { say, region } = useAnnouncer();
  const focus = useFocusAfterRender();
  const listMessage = errors[path];
  const nameOf = (i: number) => `${singular} ${i + 1}`;

  const moveTo = (from: number, to: number) => {
    const key = keys.current[from];
    keys.current = move(keys.current, from, to);
    onChange(move(value, from, to));
    focus(to < from ? [`${id}-${key}-up`, `${id}-${key}-down`] : [`${id}-${key}-down`, `${id}-${key}-up`]);
    say(`${nameOf(from)} moved to position ${to + 1} of ${value.length}.`);
  };
  const remove = (index: number) => {
    const after = keys.current[index + 1] ?? keys.current[index - 1];
    keys.current = keys.current.filter((_, i) => i !== index);
    onChange(value.filter((_, i) => i !== index));
    focus(after ? [`${id}-${after}-input`] : [`${id}-add`]);
    say(`${nameOf(index)} removed. ${value.length - 1} left.`);
  };
  const add = () => {
    const key = nextKey();
    keys.current = [...keys.current, key];
    onChange([...value, '']);
    focus([`${id}-${key}-input`]);
  };

  return (
    <fieldset
      className="rounded-md border border-slate-300 p-3 sm:p-4 dark:border-slate-700"
      aria-describedby={listMessage ? `${id}-error` : undefined}
    >
      <legend className="px-1 text-sm font-semibold">{label}</legend>
      <FixedCount limits={limits} what={`${limits.min} ${singular.toLowerCase()}${limits.min === 1 ? '' : 's'}`} />
      <ListMessage id={`${id}-error`} message={listMessage} />
      <ol className="mt-2 space-y-3">
        {value.map((text, i) => {
          const key = keys.current[i];
          const base = `${id}-${key}`;
          const message = errors[`${path}.${i}`];
          const common = {
            id: `${base}-input`,
            className: inputClass,
            value: text,
            'aria-invalid': Boolean(message) || undefined,
            'aria-describedby': message ? `${base}-error` : undefined,
          };
          return (
            <li key={key} className="space-y-2">
              <label htmlFor={`${base}-input`} className="block text-sm text-slate-700 dark:text-slate-300">
                {nameOf(i)}
              </label>
              {long ? (
                <textarea
                  {...common}
                  rows={3}
                  onChange={(e) => onChange(value.map((v, j) => (j === i ? e.target.value : v)))}
                />
              ) : (
                <input
                  {...common}
                  type="text"
                  onChange={(e) => onChange(value.map((v, j) => (j === i ? e.target.value : v)))}
                />
              )}
              <ListMessage id={`${base}-error`} message={message} />
              <ItemButtons
                base={base}
                index={i}
                count={value.length}
                name={nameOf(i).toLowerCase()}
                removable={value.length > limits.min}
                movable={!limits.fixedOrder}
                onMove={(to) => moveTo(i, to)}
                onRemove={() => remove(i)}
              />
            </li>
          );
        })}
      </ol>
      {value.length < limits.max ? (
        <button id={`${id}-add`} type="button" className={`${buttonClass('secondary')} mt-3`} onClick={add}>
          <Plus className="size-4" aria-hidden="true" />
          Add {singular.toLowerCase()}
        </button>
      ) : null}
      {region}
    </fieldset>
  );
}
