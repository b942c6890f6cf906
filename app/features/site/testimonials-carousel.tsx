import { clsx } from 'clsx';
import { Quote } from 'lucide-react';
import type { Testimonial } from '../../../common/content/schemas.ts';
import { TESTIMONIAL_INTERVAL_MS } from './carousel-settings.ts';
import { CarouselButtons, CarouselDots, CarouselSlide } from './carousel-controls.tsx';

/**
 * The gallery's testimonials: one at a time, a new one every 5 s, back to the first after the last.
 * Markup only (data-module="testimonials-carousel", app/enhance/testimonials-carousel.ts); without
 * JavaScript the first one shows.
 */
export function TestimonialsCarousel({ items }: { items: Testimonial[] }) {
  return (
    <section
      data-module="testimonials-carousel"
      data-interval={TESTIMONIAL_INTERVAL_MS}
      aria-roledescription="carousel"
      aria-labelledby="testimonials-heading"
      className="bg-slate-100 px-4 py-16 dark:bg-slate-900"
    >
      <div className="mx-auto max-w-3xl text-center">
        <h2 id="testimonials-heading" className="text-3xl font-bold">
          What Our Clients Say
        </h2>
        <div aria-live="off" data-carousel-live className="relative mt-8 grid">
          {items.map((t, i) => (
            <CarouselSlide
              key={t.name}
              label={`${i + 1} of ${items.length}`}
              data-testimonial
              inert={i !== 0}
              aria-hidden={i !== 0}
              className={clsx('col-start-1 row-start-1 transition-opacity duration-500', i === 0 ? 'opacity-100' : 'opacity-0')}
            >
              <figure>
                <Quote className="mx-auto size-10 text-brand-600 dark:text-sky-300" aria-hidden="true" />
                <blockquote className="mt-4 text-xl leading-relaxed text-slate-800 dark:text-slate-100">“{t.quote}”</blockquote>
                <figcaption className="mt-6">
                  <span className="block font-semibold">{t.name}</span>
                  <span className="block text-sm text-slate-700 dark:text-slate-300">{t.position}</span>
                </figcaption>
              </figure>
            </CarouselSlide>
          ))}
        </div>
        <CarouselButtons what="testimonials" item="testimonial" playBetween className="mt-8 flex items-center justify-center gap-2" />
        <div className="mt-4">
          <CarouselDots count={items.length} tone="dark" labelFor={(i) => `Show testimonial ${i + 1}`} />
        </div>
      </div>
    </section>
  );
}
