import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import type { Slide } from '../../../common/content/schemas.ts';
import { company } from '../../../common/content/company.ts';
import { PATHS } from '../../../common/paths.ts';
import { HOME_SLIDE_INTERVAL_MS, HOME_SLIDE_SWIPE_THRESHOLD_PX } from './carousel-settings.ts';
import { CarouselDots, PlayPauseButton } from './carousel-controls.tsx';
import { ResponsiveImage } from './responsive-image.tsx';
import { pauseOnKeyboardFocus, useAutoAdvance, usePrefersReducedMotion, useSwipe, useReadyMarker } from './use-carousel.ts';

/**
 * Home's full-screen slider. Advances every 4.5 s; hovering or keyboard focus inside it pauses it,
 * the pause button stops it (WAI-ARIA carousel pattern), and visitors who prefer reduced motion get
 * no automatic rotation. Hidden slides are inert, so Tab never lands on a button that cannot be seen.
 */
export function HeroSlider({ slides }: { slides: Slide[] }) {
  const count = slides.length;
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focusedWithin, setFocusedWithin] = useState(false);
  const focusHandlers = pauseOnKeyboardFocus(setFocusedWithin);
  const reducedMotion = usePrefersReducedMotion();
  const ready = useReadyMarker<HTMLElement>();
  // Pictures of slides not yet shown are only requested when they are about to appear.
  const [warm, setWarm] = useState<ReadonlySet<number>>(() => new Set([0]));
  const autoplay = playing && !reducedMotion;

  const show = (i: number) => {
    const next = (i + count) % count;
    setIndex(next);
    setWarm((w) => (w.has(next) && w.has((next + 1) % count) ? w : new Set([...w, next, (next + 1) % count])));
  };
  useEffect(() => {
    // Fetch the second slide's picture once the page has loaded, so the first change does not flash.
    const warmNext = () => setWarm((w) => new Set([...w, 1 % count]));
    if (document.readyState === 'complete') warmNext();
    else window.addEventListener('load', warmNext, { once: true });
    return () => window.removeEventListener('load', warmNext);
  }, [count]);
  useAutoAdvance(HOME_SLIDE_INTERVAL_MS, autoplay && !hovered && !focusedWithin, index, () => show(index + 1));
  const swipe = useSwipe({ thresholdPx: HOME_SLIDE_SWIPE_THRESHOLD_PX, onNext: () => show(index + 1), onPrevious: () => show(index - 1) });

  return (
    <section
      ref={ready}
      aria-roledescription="carousel"
      aria-label="Highlights"
      className="relative h-[calc(100svh-4rem)] min-h-[30rem] w-full overflow-hidden bg-slate-900 text-white"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      {...focusHandlers}
      {...swipe}
    >
      <div aria-live={autoplay ? 'off' : 'polite'} className="h-full">
        {slides.map((slide, i) => {
          const active = i === index;
          return (
            <div
              key={slide.theme}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}`}
              data-slide={slide.theme}
              inert={!active}
              aria-hidden={!active}
              className={clsx('absolute inset-0 transition-opacity duration-700', active ? 'z-10 opacity-100' : 'z-0 opacity-0')}
            >
              {i === 0 || warm.has(i) ? (
                <ResponsiveImage image={slide.image} alt="" sizes="100vw" priority={i === 0} className="absolute inset-0 h-full w-full object-cover" />
              ) : null}
              <div className="absolute inset-0 bg-gradient-to-t from-slate-950/90 via-slate-950/60 to-slate-950/30" aria-hidden="true" />
              <div className="relative mx-auto flex h-full max-w-7xl flex-col justify-center px-4 pb-24 sm:px-8">
                {i === 0 ? (
                  <h1 className="text-sm font-semibold tracking-widest text-amber-300 uppercase">{company.name}</h1>
                ) : (
                  <p className="text-sm font-semibold tracking-widest text-amber-300 uppercase">{company.name}</p>
                )}
                <h2 className="mt-3 max-w-3xl text-4xl leading-tight font-bold sm:text-6xl">{slide.title}</h2>
                <p className="mt-4 max-w-2xl text-lg text-slate-100 sm:text-xl">{slide.subtitle}</p>
                <div className="mt-8 flex flex-wrap gap-3">
                  <Link to={PATHS.services} className="inline-flex min-h-11 items-center rounded-md bg-amber-400 px-5 font-semibold text-slate-950 hover:bg-amber-300">
                    Our Services
                  </Link>
                  <Link to={PATHS.contact} className="inline-flex min-h-11 items-center rounded-md border-2 border-white px-5 font-semibold text-white hover:bg-white hover:text-slate-950">
                    Get A Quote
                  </Link>
                </div>
              </div>
            </div>
          );
        })}
      </div>
      <div className="absolute inset-x-0 bottom-6 z-20 flex items-center justify-center gap-3">
        <PlayPauseButton playing={autoplay} onToggle={() => setPlaying(!autoplay)} what="slideshow" />
        <CarouselDots count={count} current={index} onSelect={show} labelFor={(i) => `Show slide ${i + 1}: ${slides[i].title}`} />
      </div>
    </section>
  );
}
