import { Link } from 'react-router';
import { clsx } from 'clsx';
import type { Slide } from '../../../common/content/schemas.ts';
import { useSection } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { HOME_SLIDE_INTERVAL_MS, HOME_SLIDE_SWIPE_THRESHOLD_PX } from './carousel-settings.ts';
import { CarouselDots, PlayPauseButton } from './carousel-controls.tsx';
import { ResponsiveImage } from './responsive-image.tsx';

/**
 * Home's full-screen slider: markup only (data-module="hero-slider", app/enhance/hero-slider.ts).
 * Without JavaScript it shows its first slide. Advances every 4.5 s; hovering or keyboard focus inside it pauses it,
 * the pause button stops it (WAI-ARIA carousel pattern), and visitors who prefer reduced motion get
 * no automatic rotation. Hidden slides are inert, so Tab never lands on a button that cannot be seen.
 */
export function HeroSlider({ slides }: { slides: Slide[] }) {
  const count = slides.length;
  const company = useSection('company');
  return (
    <section
      data-module="hero-slider"
      data-interval={HOME_SLIDE_INTERVAL_MS}
      data-swipe={HOME_SLIDE_SWIPE_THRESHOLD_PX}
      aria-roledescription="carousel"
      aria-label="Highlights"
      className="relative h-[calc(100svh-4rem)] min-h-[30rem] w-full overflow-hidden bg-slate-900 text-white"
    >
      <div aria-live="off" className="h-full" data-carousel-live>
        {slides.map((slide, i) => {
          const active = i === 0;
          const image = <ResponsiveImage image={slide.image} alt="" sizes="100vw" priority={i === 0} className="absolute inset-0 h-full w-full object-cover" />;
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
              {/* Later slides' pictures wait in a template until they are about to show (app/enhance/hero-slider.ts). */}
              {i === 0 ? image : <template data-slide-image>{image}</template>}
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
        <PlayPauseButton what="slideshow" />
        <CarouselDots count={count} labelFor={(i) => `Show slide ${i + 1}: ${slides[i].title}`} />
      </div>
    </section>
  );
}
