import { MapPin } from 'lucide-react';
import type { Route } from './+types/gallery';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { ResponsiveImage } from '../../features/site/responsive-image.tsx';
import { TestimonialsCarousel } from '../../features/site/testimonials-carousel.tsx';
import { SiteHero } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['gallery', 'testimonials']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'Project Gallery',
    description: 'Pictures from our oil and gas, civil, marine and fabrication projects, and what our clients say about working with us.',
    path: PATHS.gallery,
  });

export default function GalleryPage({ loaderData }: Route.ComponentProps) {
  const gallery = loaderData.gallery.items;
  const testimonials = loaderData.testimonials.items;
  return (
    <>
      <SiteHero title="Project Gallery" subtitle="A look at our work on site, in the yard and on the water." />
      <section aria-label="Gallery" className="mx-auto max-w-7xl px-4 py-16">
        <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 md:grid-cols-3 xl:grid-cols-4">
          {gallery.map((item) => (
            <li key={item.name}>
              {/* Focusable so keyboard users (and a tap on touch screens) reveal the caption as hover does. */}
              <figure tabIndex={0} className="group relative overflow-hidden rounded-xl bg-slate-200 dark:bg-slate-800">
                <ResponsiveImage
                  image={item.image}
                  alt={item.name}
                  sizes="(min-width: 1280px) 300px, (min-width: 768px) 33vw, (min-width: 640px) 50vw, 100vw"
                  className="aspect-[4/3] h-auto w-full object-cover transition-transform duration-300 group-hover:scale-105"
                />
                <figcaption className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-slate-950/95 to-slate-950/40 p-4 text-white opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 group-focus:opacity-100 [@media(hover:none)]:opacity-100">
                  <span className="block font-semibold">{item.name}</span>
                  <span className="mt-1 flex items-center gap-1 text-sm text-slate-100">
                    <MapPin className="size-4" aria-hidden="true" />
                    {item.location}
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>
      <TestimonialsCarousel items={testimonials} />
    </>
  );
}
