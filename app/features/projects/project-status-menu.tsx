import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Check, ChevronDown } from 'lucide-react';
import { clsx } from 'clsx';
import { PROJECT_STATUSES, PROJECT_STATUS_LABELS, type ProjectStatus } from '../../../common/schemas/projects.ts';

/**
 * The direct choice beside the cycling status button (issue 22): a menu button opening the four
 * statuses, so any status is one step (one request, one live event). The WAI-ARIA menu button
 * pattern: Enter, Space or the arrows open it on the current status, the arrows, Home and End move,
 * Enter or Space choose, Escape and Tab close it, and the focus goes back to the button.
 */
export function ProjectStatusMenu({
  status,
  projectName,
  onChoose,
  busy,
}: {
  status: ProjectStatus;
  projectName: string;
  onChoose: (status: ProjectStatus) => void;
  busy?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (open) items.current[active]?.focus();
  }, [open, active]);

  // A click anywhere else closes the menu, as a native one would.
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  function openAt(index: number) {
    setActive(index);
    setOpen(true);
  }

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) button.current?.focus();
  }

  function choose(next: ProjectStatus) {
    close(true);
    if (next !== status) onChoose(next);
  }

  function onMenuKey(e: KeyboardEvent) {
    const last = PROJECT_STATUSES.length - 1;
    const moves: Record<string, number> = { ArrowDown: active === last ? 0 : active + 1, ArrowUp: active === 0 ? last : active - 1, Home: 0, End: last };
    if (e.key in moves) {
      e.preventDefault();
      setActive(moves[e.key]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    }
  }

  return (
    <div ref={root} className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Choose status of ${projectName}`}
        // Not disabled while saving: the focus comes back here after a choice and must not be dropped.
        aria-disabled={busy || undefined}
        onClick={() => {
          if (busy) return;
          if (open) close(false);
          else openAt(PROJECT_STATUSES.indexOf(status));
        }}
        onKeyDown={(e) => {
          if (busy) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            openAt(e.key === 'ArrowDown' ? PROJECT_STATUSES.indexOf(status) : PROJECT_STATUSES.length - 1);
          }
        }}
        className="inline-flex min-h-8 min-w-8 items-center justify-center rounded-full border border-slate-400 bg-white px-1.5 text-slate-800 hover:bg-slate-100 aria-disabled:cursor-wait aria-disabled:opacity-60 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
      >
        <ChevronDown className={clsx('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      {open ? (
        <div
          id={menuId}
          role="menu"
          aria-label={`Status of ${projectName}`}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-20 mt-1 grid w-44 gap-0.5 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          {PROJECT_STATUSES.map((s, i) => (
            <button
              key={s}
              ref={(el) => {
                items.current[i] = el;
              }}
              type="button"
              role="menuitemradio"
              aria-checked={s === status}
              tabIndex={i === active ? 0 : -1}
              onClick={() => choose(s)}
              onMouseEnter={() => setActive(i)}
              className="flex min-h-11 items-center gap-2 rounded-md px-2 text-left text-sm text-slate-900 hover:bg-slate-100 focus:bg-slate-100 focus:outline-2 focus:outline-brand-600 dark:text-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800 dark:focus:outline-sky-300"
            >
              <Check className={clsx('size-4 shrink-0', s === status ? 'opacity-100' : 'opacity-0')} aria-hidden="true" />
              {PROJECT_STATUS_LABELS[s]}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
