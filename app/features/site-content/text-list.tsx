import { useId } from 'react';
import { Plus } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass } from '../../components/forms/field-classes.ts';
import type { CountLimits } from './count-limits.ts';
import { FixedCount, ItemButtons, ListMessage, move, nextKey, useAnnouncer, useFocusAfterRender, useItemKeys } from './list-editor-parts.tsx';

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
