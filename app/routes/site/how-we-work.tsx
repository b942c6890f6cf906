import { CalendarCheck, Receipt, Target, Zap } from 'lucide-react';
import type { Route } from './+types/how-we-work';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import { CallToAction, SectionHeading, SiteHero } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['process']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'How We Work',
    description: 'Our proven methodology delivers exceptional results through a transparent, step-by-step approach: from intent declaration to milestone payments.',
    path: PATHS.howWeWork,
  });

const BENEFIT_ICONS = [Target, Receipt, Zap, CalendarCheck];

export default function HowWeWorkPage({ loaderData }: Route.ComponentProps) {
  const { steps: processSteps, benefits: processBenefits } = loaderData.process;
  return (
    <>
      <SiteHero title="How We Work" subtitle="Our proven methodology delivers exceptional results through a transparent, step-by-step approach." />

      <section aria-labelledby="steps-heading" className="mx-auto max-w-4xl px-4 py-16">
        <SectionHeading id="steps-heading" title="Our Process" />
        <ol className="mt-10 space-y-6">
          {processSteps.map((s) => (
            <li key={s.step} className="flex gap-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-700 text-xl font-bold text-white dark:bg-sky-300 dark:text-slate-950" aria-hidden="true">
                {s.step}
              </span>
              <div>
                <p className="text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">Step {s.step}</p>
                <h3 className="text-xl font-semibold">{s.title}</h3>
                <p className="mt-2 text-slate-700 dark:text-slate-300">{s.description}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="why-process-heading" className="bg-slate-100 px-4 py-16 dark:bg-slate-900">
        <div className="mx-auto max-w-7xl">
          <SectionHeading id="why-process-heading" title="Why Our Process Works" />
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {processBenefits.map((b, i) => {
              const Icon = BENEFIT_ICONS[i % BENEFIT_ICONS.length];
              return (
                <li key={b.title} className="rounded-xl bg-white p-6 shadow-sm dark:bg-slate-950">
                  <Icon className="size-8 text-brand-700 dark:text-sky-300" aria-hidden="true" />
                  <h3 className="mt-3 text-lg font-semibold">{b.title}</h3>
                  <p className="mt-2 text-slate-700 dark:text-slate-300">{b.description}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <CallToAction
        title="Ready to Experience Our Process?"
        text="Tell us what you need; we will walk you through every step before any work begins."
        linkLabel="Start Your Project"
        to={PATHS.contact}
      />
    </>
  );
}
