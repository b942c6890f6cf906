import { useState } from 'react';
import type { EquipmentItem } from '../../../common/content/schemas.ts';
import {
  EQUIPMENT_CARDS_PER_VIEW_LARGE,
  EQUIPMENT_CAROUSEL_INTERVAL_MS,
  EQUIPMENT_SWIPE_THRESHOLD_PX,
  LARGE_SCREEN_QUERY,
} from './carousel-settings.ts';
import { ArrowButton, CarouselDots, PlayPauseButton } from './carousel-controls.tsx';
import { ResponsiveImage } from './responsive-image.tsx';
import { pauseOnKeyboardFocus, useAutoAdvance, useMediaQuery, usePrefersReducedMotion, useSwipe, useReadyMarker } from './use-carousel.ts';

/**
 * Our Equipment's fleet carousel: one card per view on small screens, three on large ones. Every
 * move (timer, arrows, dots) goes one view at a time and wraps around; swiping works on small screens.
 */
export function FleetCarousel({ items }: { items: EquipmentItem[] }) {
  const large = useMediaQuery(LARGE_SCREEN_QUERY);
  const perView = large ? EQUIPMENT_CARDS_PER_VIEW_LARGE : 1;
  const views = Math.ceil(items.length / perView);
  // The first visible card is the state, so switching between one and three per view keeps the place.
  const [first, setFirst] = useState(0);
  const view = Math.floor(first / perView);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focusedWithin, setFocusedWithin] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const ready = useReadyMarker<HTMLElement>();
  const autoplay = playing && !reducedMotion;

  const goTo = (v: number) => setFirst((((v % views) + views) % views) * perView);
  useAutoAdvance(EQUIPMENT_CAROUSEL_INTERVAL_MS, autoplay && !hovered && !focusedWithin, first, () => goTo(view + 1));
  const swipe = useSwipe({ thresholdPx: EQUIPMENT_SWIPE_THRESHOLD_PX, enabled: !large, onNext: () => goTo(view + 1), onPrevious: () => goTo(view - 1) });

  return (
    <section
      ref={ready}
      aria-roledescription="carousel"
      aria-labelledby="fleet-heading"
      className="mx-auto max-w-7xl px-4 py-16"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      {...pauseOnKeyboardFocus(setFocusedWithin)}
    >
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="fleet-heading" className="text-3xl font-bold">
            Our Fleet
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">Owned, maintained and operated by our own crews.</p>
        </div>
        <div className="flex items-center gap-2">
          <PlayPauseButton playing={autoplay} onToggle={() => setPlaying(!autoplay)} what="fleet carousel" tone="dark" />
          <ArrowButton direction="previous" label="Previous equipment" onClick={() => goTo(view - 1)} />
          <ArrowButton direction="next" label="Next equipment" onClick={() => goTo(view + 1)} />
        </div>
      </div>
      <div className="mt-8 overflow-hidden" {...swipe}>
        <div
          aria-live={autoplay ? 'off' : 'polite'}
          className="flex transition-transform duration-500 ease-out"
          style={{ transform: `translateX(-${view * 100}%)` }}
        >
          {items.map((item, i) => {
            const visible = i >= view * perView && i < (view + 1) * perView;
            return (
              <div
                key={item.name}
                role="group"
                aria-roledescription="slide"
                aria-label={`${item.name} (${i + 1} of ${items.length})`}
                inert={!visible}
                aria-hidden={!visible}
                data-visible={visible ? 'true' : 'false'}
                className="w-full shrink-0 px-2 lg:w-1/3"
              >
                <article className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
                  <div className="relative">
                    <ResponsiveImage image={item.image} alt={item.name} sizes="(min-width: 1024px) 400px, 100vw" className="aspect-[4/3] h-auto w-full object-cover" />
                    <span className="absolute top-3 left-3 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">{item.category}</span>
                  </div>
                  <h3 className="p-4 text-lg font-semibold">{item.name}</h3>
                </article>
              </div>
            );
          })}
        </div>
      </div>
      <div className="mt-6">
        <CarouselDots
          count={views}
          current={view}
          onSelect={goTo}
          tone="dark"
          labelFor={(v) => (perView === 1 ? `Show ${items[v].name}` : `Show equipment ${v * perView + 1} to ${Math.min(items.length, (v + 1) * perView)}`)}
        />
      </div>
    </section>
  );
}
