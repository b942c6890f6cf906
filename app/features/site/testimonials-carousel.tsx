import { useState } from 'react';
import { clsx } from 'clsx';
import { Quote } from 'lucide-react';
import type { Testimonial } from '../../../common/content/schemas.ts';
import { TESTIMONIAL_INTERVAL_MS } from './carousel-settings.ts';
import { ArrowButton, CarouselDots, PlayPauseButton } from './carousel-controls.tsx';
import { pauseOnKeyboardFocus, useAutoAdvance, usePrefersReducedMotion, useReadyMarker } from './use-carousel.ts';

/** The gallery's testimonials: one at a time, a new one every 5 s, back to the first after the last. */
export function TestimonialsCarousel({ items }: { items: Testimonial[] }) {
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focusedWithin, setFocusedWithin] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const ready = useReadyMarker<HTMLElement>();
  const autoplay = playing && !reducedMotion;
  const show = (i: number) => setIndex((i + items.length) % items.length);
  useAutoAdvance(TESTIMONIAL_INTERVAL_MS, autoplay && !hovered && !focusedWithin, index, () => show(index + 1));

  return (
    <section
      ref={ready}
      aria-roledescription="carousel"
      aria-labelledby="testimonials-heading"
      className="bg-slate-100 px-4 py-16 dark:bg-slate-900"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      {...pauseOnKeyboardFocus(setFocusedWithin)}
    >
      <div className="mx-auto max-w-3xl text-center">
        <h2 id="testimonials-heading" className="text-3xl font-bold">
          What Our Clients Say
        </h2>
        <div aria-live={autoplay ? 'off' : 'polite'} className="relative mt-8 grid">
          {items.map((t, i) => (
            <div
              key={t.name}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${items.length}`}
              inert={i !== index}
              aria-hidden={i !== index}
              className={clsx('col-start-1 row-start-1 transition-opacity duration-500', i === index ? 'opacity-100' : 'opacity-0')}
            >
              <figure>
                <Quote className="mx-auto size-10 text-brand-600 dark:text-sky-300" aria-hidden="true" />
                <blockquote className="mt-4 text-xl leading-relaxed text-slate-800 dark:text-slate-100">“{t.quote}”</blockquote>
                <figcaption className="mt-6">
                  <span className="block font-semibold">{t.name}</span>
                  <span className="block text-sm text-slate-700 dark:text-slate-300">{t.position}</span>
                </figcaption>
              </figure>
            </div>
          ))}
        </div>
        <div className="mt-8 flex items-center justify-center gap-2">
          <ArrowButton direction="previous" label="Previous testimonial" onClick={() => show(index - 1)} />
          <PlayPauseButton playing={autoplay} onToggle={() => setPlaying(!autoplay)} what="testimonials" tone="dark" />
          <ArrowButton direction="next" label="Next testimonial" onClick={() => show(index + 1)} />
        </div>
        <div className="mt-4">
          <CarouselDots count={items.length} current={index} onSelect={show} tone="dark" labelFor={(i) => `Show testimonial ${i + 1}`} />
        </div>
      </div>
    </section>
  );
}
