import { Check } from 'lucide-react';
import type { Route } from './+types/services';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { ResponsiveImage } from '../../features/site/responsive-image.tsx';
import { CallToAction, ServiceIcon, SiteHero } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['services']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'Our Services',
    description: 'Oil and gas, design and planning, mechanical fabrication, civil engineering, marine logistics and mechanical engineering services.',
    path: PATHS.services,
  });

export default function ServicesPage({ loaderData }: Route.ComponentProps) {
  const { services } = loaderData.services;
  return (
    <>
      <SiteHero title="Our Services" subtitle="Six engineering and logistics services, delivered by our own people with our own equipment." />
      {services.map((service, i) => (
        // scroll-mt keeps the section title clear of the fixed header when /services#id scrolls here.
        <section key={service.id} id={service.id} aria-labelledby={`${service.id}-title`} className={i % 2 ? 'scroll-mt-16 bg-slate-100 dark:bg-slate-900' : 'scroll-mt-16'}>
          <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-16 lg:grid-cols-2">
            <div className={i % 2 ? 'lg:order-2' : undefined}>
              <ServiceIcon service={service} />
              <h2 id={`${service.id}-title`} className="mt-4 text-3xl font-bold">
                {service.title}
              </h2>
              <p className="mt-3 text-lg text-slate-800 dark:text-slate-200">{service.description}</p>
              {service.details.map((paragraph) => (
                <p key={paragraph.slice(0, 24)} className="mt-3 text-slate-700 dark:text-slate-300">
                  {paragraph}
                </p>
              ))}
              <h3 className="mt-6 text-lg font-semibold">Key features</h3>
              <ul className="mt-3 grid gap-2 sm:grid-cols-2">
                {service.features.map((feature) => (
                  <li key={feature} className="flex gap-2">
                    <Check className="mt-0.5 size-5 shrink-0 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
            </div>
            <ResponsiveImage image={service.image} alt={`${service.title} illustration`} sizes="(min-width: 1024px) 600px, 100vw" className="aspect-[4/3] h-auto w-full rounded-xl object-cover shadow-md" />
          </div>
        </section>
      ))}
      <CallToAction title="Need One of These Services?" text="Send us the scope and we will come back with a technical and commercial proposal." linkLabel="Get A Quote" to={PATHS.contact} />
    </>
  );
}
