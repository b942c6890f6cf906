import { useEffect, useRef, useState } from 'react';
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import type { CountLimits } from './count-limits.ts';

// What the list editors of the website editor share (issue 24, decision 291): RecordList, a list of
// records, each a form of its own, and TextList, a list of texts, one input each. Both add, remove
// and move items; after a move the focus stays on the moved item's button and a live region says
// where it went, so a keyboard or screen reader user follows the item, not the position.

const small = `${buttonClass('secondary')} !min-h-11 !px-3 !py-1 text-sm`;

let counter = 0;
/** A key no item has had yet (keys outlive moves, so they cannot be positions). */
export const nextKey = () => `k${(counter += 1)}`;

/** Stable keys for the items of `list`, moved, removed and added with them. */
export function useItemKeys(length: number) {
  const keys = useRef<string[]>([]);
  if (keys.current.length !== length) keys.current = Array.from({ length }, nextKey);
  return keys;
}

/** A copy of `list` with the item at `from` moved to `to`. */
export const move = <T,>(list: readonly T[], from: number, to: number): T[] => {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
};

/** Polite announcements, read once each (the text changes even when the words repeat). */
export function useAnnouncer() {
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
export function useFocusAfterRender() {
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

/** An item's Move up, Move down and Remove buttons, each named with the item it acts on. */
export function ItemButtons({
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
export function FixedCount({ limits, what }: { limits: CountLimits; what: string }) {
  return limits.min === limits.max ? (
    <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
      The page shows exactly {what}: change them in place.
    </p>
  ) : null;
}

/** The error message of a list or of one of its items. */
export function ListMessage({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-800 dark:text-red-300">
      {message}
    </p>
  ) : null;
}
