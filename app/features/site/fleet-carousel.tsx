import type { EquipmentItem } from '../../../common/content/schemas.ts';
import {
  EQUIPMENT_CARDS_PER_VIEW_LARGE,
  EQUIPMENT_CAROUSEL_INTERVAL_MS,
  EQUIPMENT_SWIPE_THRESHOLD_PX,
  LARGE_SCREEN_QUERY,
} from './carousel-settings.ts';
import { CarouselButtons, CarouselDots, CarouselSlide } from './carousel-controls.tsx';
import { ResponsiveImage } from './responsive-image.tsx';

function EquipmentCard({ item }: { item: EquipmentItem }) {
  return (
    <article className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="relative">
        <ResponsiveImage image={item.image} alt={item.name} sizes="(min-width: 1024px) 400px, 100vw" className="aspect-[4/3] h-auto w-full object-cover" />
        <span className="absolute top-3 left-3 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">{item.category}</span>
      </div>
      <h3 className="p-4 text-lg font-semibold">{item.name}</h3>
    </article>
  );
}

/**
 * Our Equipment's fleet carousel: markup only (data-module="fleet-carousel", app/enhance/fleet-carousel.ts).
 * One card per view on small screens, three on large ones; every move (timer, arrows, dots) goes
 * one view at a time and wraps around; swiping works on small screens. Each width has its own dots,
 * shown by CSS. Without JavaScript the first view shows.
 */
export function FleetCarousel({ items }: { items: EquipmentItem[] }) {
  const per = EQUIPMENT_CARDS_PER_VIEW_LARGE;
  return (
    <section
      data-module="fleet-carousel"
      data-interval={EQUIPMENT_CAROUSEL_INTERVAL_MS}
      data-swipe={EQUIPMENT_SWIPE_THRESHOLD_PX}
      data-per-view={per}
      data-large-query={LARGE_SCREEN_QUERY}
      aria-roledescription="carousel"
      aria-labelledby="fleet-heading"
      className="mx-auto max-w-7xl px-4 py-16"
    >
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="fleet-heading" className="text-3xl font-bold">
            Our Fleet
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">Owned, maintained and operated by our own crews.</p>
        </div>
        <CarouselButtons what="fleet carousel" item="equipment" className="flex items-center gap-2" />
      </div>
      <div className="mt-8 overflow-hidden" data-carousel-viewport>
        <div aria-live="off" data-carousel-live data-carousel-track className="flex transition-transform duration-500 ease-out">
          {items.map((item, i) => (
            <CarouselSlide key={item.name} label={`${item.name} (${i + 1} of ${items.length})`} data-card className="w-full shrink-0 px-2 lg:w-1/3">
              <EquipmentCard item={item} />
            </CarouselSlide>
          ))}
        </div>
      </div>
      <div className="mt-6">
        <CarouselDots group="small" className="lg:hidden" count={items.length} tone="dark" labelFor={(v) => `Show ${items[v].name}`} />
        <CarouselDots
          group="large"
          className="hidden lg:flex"
          count={Math.ceil(items.length / per)}
          tone="dark"
          labelFor={(v) => `Show equipment ${v * per + 1} to ${Math.min(items.length, (v + 1) * per)}`}
        />
      </div>
    </section>
  );
}
