import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { Loader2, Search } from 'lucide-react';
import clsx from 'clsx';
import { SEARCH_QUERY_MAX, SEARCH_QUERY_MIN, type SearchHit } from '../../../common/schemas/search.ts';
import { inputClass } from '../../components/forms/field-classes.ts';
import { searchable, useSearch, type SearchScope } from './search-api.ts';
import { useDebounced } from './use-debounced.ts';
import { useSlashFocus } from './use-slash-focus.ts';
import { revealWhenShown } from './reveal-hash.ts';

const DEBOUNCE_MS = 250;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The search box of a dashboard header (decision 251): an ARIA 1.2 combobox whose listbox holds one
 * group per kind. Arrow keys move through every hit, Enter opens the chosen one (the first when none
 * is chosen), Escape closes; '/' anywhere focuses it. A status line says what a screen reader needs:
 * searching, how many were found, nothing found, or the failure.
 */
export function SearchBox({ scope }: { scope: SearchScope }) {
  const navigate = useNavigate();
  const baseId = useId();
  const listId = `${baseId}-results`;
  const input = useRef<HTMLInputElement>(null);
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  useSlashFocus(input);
  const settled = useDebounced(term, DEBOUNCE_MS);
  const result = useSearch(scope, settled);
  const ready = searchable(term);
  const waiting = ready && (settled !== term || result.isFetching);
  const data = ready && result.data && result.data.query === settled.trim() ? result.data : null;
  const groups = useMemo(() => data?.groups ?? [], [data]);
  const hits = useMemo(() => groups.flatMap((g) => g.hits), [groups]);
  const optionId = (index: number) => `${baseId}-hit-${index}`;

  function openHit(hit: SearchHit) {
    setOpen(false);
    setActive(-1);
    input.current?.blur();
    void navigate(hit.href);
    revealWhenShown(hit.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (hits.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + hits.length + (current < 0 && step < 0 ? 1 : 0)) % hits.length);
    } else if (event.key === 'Enter') {
      const hit = hits[active] ?? hits[0];
      if (hit) {
        event.preventDefault();
        openHit(hit);
      }
    } else if (event.key === 'Escape') {
      if (open && term) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else setTerm('');
    }
  }

  const status = !ready
    ? term.trim()
      ? `Type at least ${SEARCH_QUERY_MIN} characters to search`
      : ''
    : result.isError && !waiting
      ? `Search failed: ${result.error.message}`
      : waiting && groups.length === 0
        ? 'Searching…'
        : groups.length === 0
          ? `Nothing found for “${settled.trim()}”`
          : `${plural(hits.length, 'result', 'results')} in ${plural(groups.length, 'group', 'groups')}${groups.some((g) => g.more) ? '; some groups show only their first results' : ''}`;
  const expanded = open && ready && term.trim().length > 0;

  let index = -1;
  return (
    <div
      className="relative w-full sm:max-w-md"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={`${baseId}-input`} className="sr-only">
        {scope === 'admin' ? 'Search clients, projects, reports and messages' : 'Search my projects, reports and messages'}
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500 dark:text-slate-400" aria-hidden="true" />
        <input
          ref={input}
          id={`${baseId}-input`}
          type="search"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-describedby={`${baseId}-hint`}
          autoComplete="off"
          spellCheck={false}
          maxLength={SEARCH_QUERY_MAX}
          placeholder={scope === 'admin' ? 'Search everything' : 'Search my projects'}
          value={term}
          onChange={(event) => {
            setTerm(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={onKeyDown}
          className={clsx(inputClass, 'pr-16 pl-9')}
        />
        <span className="pointer-events-none absolute top-1/2 right-3 flex -translate-y-1/2 items-center gap-2 text-slate-500 dark:text-slate-400">
          {waiting ? <Loader2 className="size-4 animate-spin motion-reduce:animate-none" aria-hidden="true" /> : null}
          <kbd aria-hidden="true" className="hidden rounded border border-slate-300 px-1.5 text-xs sm:inline dark:border-slate-600">
            /
          </kbd>
        </span>
      </div>
      <p id={`${baseId}-hint`} className="sr-only">
        Press slash to come back here. Arrow keys choose a result, Enter opens it.
      </p>
      <p role="status" aria-live="polite" className="sr-only">
        {expanded ? status : ''}
      </p>
      <div
        className={clsx(
          'absolute inset-x-0 top-full z-30 mt-1 max-h-[min(70vh,32rem)] overflow-y-auto rounded-lg border border-slate-200 bg-white shadow-lg dark:border-slate-700 dark:bg-slate-900',
          !expanded && 'hidden',
        )}
      >
        {groups.length === 0 ? (
          <p className={clsx('px-3 py-3 text-sm', result.isError && !waiting ? 'text-red-700 dark:text-red-300' : 'text-slate-600 dark:text-slate-300')}>{status}</p>
        ) : null}
        <div id={listId} role="listbox" aria-label="Search results" className={clsx(groups.length === 0 && 'hidden')}>
          {groups.map((group) => (
            <div key={group.kind} role="group" aria-labelledby={`${baseId}-${group.kind}`} className="border-b border-slate-100 py-1 last:border-b-0 dark:border-slate-800">
              <p id={`${baseId}-${group.kind}`} className="px-3 pt-1 pb-0.5 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
                {group.label}
                {group.more ? <span className="font-normal normal-case"> (first {group.hits.length})</span> : null}
              </p>
              {group.hits.map((hit) => {
                index += 1;
                const mine = index;
                return (
                  <div
                    key={hit.id}
                    id={optionId(mine)}
                    role="option"
                    aria-selected={mine === active}
                    tabIndex={-1}
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => setActive(mine)}
                    onClick={() => openHit(hit)}
                    className={clsx(
                      'cursor-pointer px-3 py-2 text-sm',
                      mine === active ? 'bg-brand-50 text-slate-900 outline-2 -outline-offset-2 outline-brand-600 dark:bg-slate-800 dark:text-white dark:outline-sky-400' : 'text-slate-800 dark:text-slate-100',
                    )}
                  >
                    <span className="block font-medium break-words">{hit.title}</span>
                    {hit.detail ? <span className="block truncate text-xs text-slate-600 dark:text-slate-300">{hit.detail}</span> : null}
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        {waiting && groups.length > 0 ? <p className="px-3 py-1 text-xs text-slate-600 dark:text-slate-300">Updating…</p> : null}
      </div>
    </div>
  );
}
