import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight, Pause, Play } from 'lucide-react';

/** The play/pause button every auto-advancing carousel must offer (WCAG 2.2.2). */
export function PlayPauseButton({ playing, onToggle, what, tone = 'light' }: { playing: boolean; onToggle: () => void; what: string; tone?: 'light' | 'dark' }) {
  return (
    <button
      type="button"
      data-carousel-toggle
      onClick={onToggle}
      aria-label={playing ? `Pause ${what}` : `Play ${what}`}
      className={clsx(
        'inline-flex size-11 items-center justify-center rounded-full',
        tone === 'light' ? 'bg-black/50 text-white hover:bg-black/70' : 'bg-slate-200 text-slate-900 hover:bg-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
      )}
    >
      {playing ? <Pause className="size-5" aria-hidden="true" /> : <Play className="size-5" aria-hidden="true" />}
    </button>
  );
}

/** One button per position; the current one is marked for assistive technology too. */
export function CarouselDots({ count, current, onSelect, labelFor, tone = 'light' }: { count: number; current: number; onSelect: (i: number) => void; labelFor: (i: number) => string; tone?: 'light' | 'dark' }) {
  return (
    <ul className="flex flex-wrap items-center justify-center">
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <button
            type="button"
            onClick={() => onSelect(i)}
            aria-label={labelFor(i)}
            aria-current={i === current ? 'true' : undefined}
            className="group inline-flex size-7 items-center justify-center rounded-full"
          >
            <span
              aria-hidden="true"
              className={clsx(
                'block h-2.5 rounded-full transition-all',
                i === current ? 'w-6' : 'w-2.5',
                tone === 'light'
                  ? i === current
                    ? 'bg-white'
                    : 'bg-white/60 group-hover:bg-white'
                  : i === current
                    ? 'bg-brand-700 dark:bg-sky-300'
                    : 'bg-slate-400 group-hover:bg-slate-600 dark:bg-slate-500',
              )}
            />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function ArrowButton({ direction, label, onClick }: { direction: 'previous' | 'next'; label: string; onClick: () => void }) {
  const Icon = direction === 'previous' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="inline-flex size-11 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-900 shadow-sm hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
    >
      <Icon className="size-5" aria-hidden="true" />
    </button>
  );
}
