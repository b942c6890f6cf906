import { Link } from 'react-router';
import { ArrowRight, CheckCircle2 } from 'lucide-react';
import type { Route } from './+types/home';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { HeroSlider } from '../../features/site/hero-slider.tsx';
import { imagePreloadLinks } from '../../features/site/responsive-image.tsx';
import { organizationJsonLd } from '../../features/site/organization-json-ld.ts';
import { CallToAction, SectionHeading, ServiceIcon } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['home', 'services', 'facts', 'partners']);
}

export const meta = ({ matches, loaderData }: Omit<Route.MetaArgs, 'matches'> & { matches: MetaMatches }): Route.MetaDescriptors => {
  const company = companyOfMatches(matches);
  return pageMeta(company, {
    title: 'Engineering, Construction & Logistics in Nigeria',
    description: 'Indigenous Nigerian engineering, construction, project management and logistics company: oil and gas, civil, mechanical and marine services since 2011.',
    path: PATHS.home,
    jsonLd: loaderData ? organizationJsonLd(company, loaderData.facts, loaderData.services) : undefined,
  });
};

// The first slide's picture is the largest thing on first paint: fetch it with the HTML.
export const links = () => imagePreloadLinks('slides/safety');

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { slides } = loaderData.home;
  const { services } = loaderData.services;
  const { whyChooseUs } = loaderData.facts;
  const { partners } = loaderData.partners;
  return (
    <>
      <HeroSlider slides={slides} />

      <section aria-labelledby="services-heading" className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
        <SectionHeading id="services-heading" title="Our Specialized Services" intro="Six disciplines, one accountable team, from the first drawing to the last inspection." />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li key={service.id} className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
              <ServiceIcon service={service} />
              <h3 className="mt-4 text-xl font-semibold">{service.title}</h3>
              <p className="mt-2 flex-1 text-slate-700 dark:text-slate-300">{service.description}</p>
              <Link
                to={PATHS.serviceSection(service.id)}
                className="mt-4 inline-flex min-h-11 items-center gap-1 self-start font-semibold text-brand-700 hover:underline dark:text-sky-300"
              >
                {/* The hidden words make the link make sense out of context (screen readers, search engines). */}
                Learn More<span className="sr-only"> about {service.title}</span> <ArrowRight className="size-4" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="why-heading" className="bg-slate-100 px-4 py-16 sm:py-20 dark:bg-slate-900">
        <div className="mx-auto max-w-7xl">
          <SectionHeading id="why-heading" title="Why Choose Us" />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {whyChooseUs.map((point) => (
              <li key={point.title} className="rounded-xl bg-white p-6 shadow-sm dark:bg-slate-950">
                <CheckCircle2 className="size-8 text-emerald-700 dark:text-emerald-400" aria-hidden="true" />
                <h3 className="mt-3 text-lg font-semibold">{point.title}</h3>
                <p className="mt-2 text-slate-700 dark:text-slate-300">{point.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="partners-heading" className="mx-auto max-w-7xl px-4 py-16 sm:py-20">
        <SectionHeading id="partners-heading" title="Our Trusted Partners" />
        <ul className="mt-10 grid grid-cols-2 gap-4 sm:grid-cols-4">
          {partners.map((partner) => (
            <li key={partner.name} className="flex items-center justify-center rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-100">
              <img src={partner.logo} alt={partner.name} width={300} height={60} loading="lazy" decoding="async" className="h-auto w-full max-w-48" />
            </li>
          ))}
        </ul>
      </section>

      <CallToAction title="Get Started Today" text="Tell us about your project and we will reply within 24 hours with the next steps." linkLabel="Contact Us" to={PATHS.contact} />
    </>
  );
}
