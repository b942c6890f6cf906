import { clsx } from 'clsx';
import { ChevronLeft, ChevronRight, Pause, Play } from 'lucide-react';
import type { HTMLAttributes } from 'react';

// Markup only: app/enhance/rotation.ts gives these their behaviour on the content pages (decision 140).

/** The play/pause button every auto-advancing carousel must offer (WCAG 2.2.2). Its icon follows data-playing by CSS. */
export function PlayPauseButton({ what, tone = 'light' }: { what: string; tone?: 'light' | 'dark' }) {
  return (
    <button
      type="button"
      data-carousel-toggle
      data-what={what}
      data-playing="true"
      aria-label={`Pause ${what}`}
      className={clsx(
        'group inline-flex size-11 items-center justify-center rounded-full',
        tone === 'light' ? 'bg-black/50 text-white hover:bg-black/70' : 'bg-slate-200 text-slate-900 hover:bg-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
      )}
    >
      <Pause className="size-5 group-data-[playing=false]:hidden" aria-hidden="true" />
      <Play className="hidden size-5 group-data-[playing=false]:block" aria-hidden="true" />
    </button>
  );
}

/** One button per position; the current one (aria-current) is marked for assistive technology and by CSS. */
export function CarouselDots({ count, labelFor, tone = 'light', className, group }: { count: number; labelFor: (i: number) => string; tone?: 'light' | 'dark'; className?: string; group?: string }) {
  return (
    <ul className={clsx('flex flex-wrap items-center justify-center', className)} data-carousel-dots={group ?? ''}>
      {Array.from({ length: count }, (_, i) => (
        <li key={i}>
          <button
            type="button"
            data-carousel-dot={i}
            aria-label={labelFor(i)}
            aria-current={i === 0 ? 'true' : undefined}
            className="group inline-flex size-7 items-center justify-center rounded-full"
          >
            <span
              aria-hidden="true"
              className={clsx(
                'block h-2.5 w-2.5 rounded-full transition-all group-aria-[current=true]:w-6',
                tone === 'light'
                  ? 'bg-white/60 group-hover:bg-white group-aria-[current=true]:bg-white'
                  : 'bg-slate-400 group-hover:bg-slate-600 group-aria-[current=true]:bg-brand-700 dark:bg-slate-500 dark:group-aria-[current=true]:bg-sky-300',
              )}
            />
          </button>
        </li>
      ))}
    </ul>
  );
}

function ArrowButton({ direction, label }: { direction: 'previous' | 'next'; label: string }) {
  const Icon = direction === 'previous' ? ChevronLeft : ChevronRight;
  return (
    <button
      type="button"
      data-carousel-arrow={direction}
      aria-label={label}
      className="inline-flex size-11 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-900 shadow-sm hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
    >
      <Icon className="size-5" aria-hidden="true" />
    </button>
  );
}

/** One slide: a group named for assistive technology; the rest (data-* marks, classes) is the carousel's. */
export function CarouselSlide({ label, ...rest }: { label: string } & HTMLAttributes<HTMLDivElement>) {
  return <div role="group" aria-roledescription="slide" aria-label={label} {...rest} />;
}

/** A carousel's own buttons: play/pause (first, or between the arrows) and the previous and next arrows. */
export function CarouselButtons({ what, item, playBetween = false, className }: { what: string; item: string; playBetween?: boolean; className: string }) {
  const play = <PlayPauseButton what={what} tone="dark" />;
  return (
    <div className={className}>
      {playBetween ? null : play}
      <ArrowButton direction="previous" label={`Previous ${item}`} />
      {playBetween ? play : null}
      <ArrowButton direction="next" label={`Next ${item}`} />
    </div>
  );
}
