import { Download, Eye, Globe, Target } from 'lucide-react';
import type { Route } from './+types/about';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import type { TeamMember } from '../../../common/content/schemas.ts';
import { ResponsiveImage } from '../../features/site/responsive-image.tsx';
import { SectionHeading, SiteHero } from '../../features/site/site-sections.tsx';
import { COMPANY_PROFILE_FILE_NAME, COMPANY_PROFILE_PDF_URL } from '../../features/site/company-profile.ts';
import { NO_HYDRATION } from '../../lib/hydration.ts';
import { safeHref } from '../../../common/schemas/link-check.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['about', 'company', 'facts', 'team']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors => {
  const company = companyOfMatches(matches);
  return pageMeta(company, {
    title: 'About Us',
    description: `Founded in ${company.foundedYear}, ${company.shortName} is a 100% Nigerian owned engineering and logistics company. Our story, vision, mission, values and team.`,
    path: PATHS.about,
  });
};

const LINK_LABELS: [keyof Pick<TeamMember, 'website' | 'linkedin' | 'twitter' | 'whatsapp'>, string][] = [
  ['website', 'Website'],
  ['linkedin', 'LinkedIn'],
  ['twitter', 'Twitter'],
  ['whatsapp', 'WhatsApp'],
];

function TeamCard({ member }: { member: TeamMember }) {
  // Decision 300: only web links are written; anything else is left out.
  const links = LINK_LABELS.flatMap(([key, label]) => {
    const href = safeHref(member[key]);
    return href ? [{ key, label, href }] : [];
  });
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <ResponsiveImage image={member.image} alt={`Portrait of ${member.name}`} sizes="(min-width: 1024px) 240px, (min-width: 640px) 50vw, 100vw" className="aspect-square h-auto w-full object-cover" />
      <div className="flex flex-1 flex-col p-5">
        <h3 className="text-lg font-semibold">{member.name}</h3>
        <p className="text-sm font-medium text-brand-700 dark:text-sky-300">{member.position}</p>
        <p className="mt-3 flex-1 text-sm text-slate-700 dark:text-slate-300">{member.bio}</p>
        {links.length ? (
          <ul className="mt-4 flex flex-wrap gap-2" aria-label={`${member.name} online`}>
            {links.map(({ key, label, href }) => (
              <li key={key}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`${member.name} on ${label}`}
                  className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3 text-sm font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
                >
                  {key === 'website' ? <Globe className="size-4" aria-hidden="true" /> : null}
                  {label}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </li>
  );
}

export default function AboutPage({ loaderData }: Route.ComponentProps) {
  const { about, company } = loaderData;
  const { companyFacts, headlineFacts } = loaderData.facts;
  const team = loaderData.team.members;
  return (
    <>
      <SiteHero title="About Us" subtitle={`An indigenous engineering, construction and logistics company, delivering across Nigeria since ${company.foundedYear}.`} />

      <div className="mx-auto flex max-w-7xl justify-center px-4 pt-10">
        <a
          href={COMPANY_PROFILE_PDF_URL}
          download={COMPANY_PROFILE_FILE_NAME}
          className="inline-flex min-h-11 items-center gap-2 rounded-md bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200"
        >
          <Download className="size-5" aria-hidden="true" />
          Download Company Profile
        </a>
      </div>

      <section aria-labelledby="story-heading" className="mx-auto grid max-w-7xl gap-10 px-4 py-14 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <h2 id="story-heading" className="text-3xl font-bold">
            Our Story
          </h2>
          {about.story.map((p) => (
            <p key={p.slice(0, 24)} className="mt-4 text-lg text-slate-700 dark:text-slate-300">
              {p}
            </p>
          ))}
        </div>
        <dl className="grid grid-cols-2 gap-4 self-start lg:col-span-2">
          {headlineFacts.map((f) => (
            <div key={f.label} className="flex flex-col-reverse justify-end rounded-xl bg-slate-100 p-4 dark:bg-slate-900">
              <dt className="text-sm text-slate-700 dark:text-slate-300">{f.label}</dt>
              <dd className="text-2xl font-bold text-brand-700 dark:text-sky-300">{f.value}</dd>
            </div>
          ))}
          <div className="col-span-2 flex flex-col-reverse justify-end rounded-xl bg-slate-100 p-4 dark:bg-slate-900">
            <dt className="text-sm text-slate-700 dark:text-slate-300">Registration number</dt>
            <dd className="text-lg font-semibold">{company.registrationNumber}</dd>
          </div>
        </dl>
      </section>

      <section aria-label="Vision and mission" className="bg-slate-100 px-4 py-14 dark:bg-slate-900">
        <div className="mx-auto grid max-w-7xl gap-6 md:grid-cols-2">
          <div className="rounded-xl bg-white p-6 shadow-sm dark:bg-slate-950">
            <Eye className="size-8 text-brand-700 dark:text-sky-300" aria-hidden="true" />
            <h2 className="mt-3 text-2xl font-bold">Vision</h2>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{about.vision}</p>
          </div>
          <div className="rounded-xl bg-white p-6 shadow-sm dark:bg-slate-950">
            <Target className="size-8 text-brand-700 dark:text-sky-300" aria-hidden="true" />
            <h2 className="mt-3 text-2xl font-bold">Mission</h2>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{about.mission}</p>
          </div>
        </div>
      </section>

      <section aria-labelledby="values-heading" className="mx-auto max-w-7xl px-4 py-14">
        <SectionHeading id="values-heading" title="Values" />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {about.values.map((v) => (
            <li key={v.title} className="rounded-xl border border-slate-200 p-6 dark:border-slate-700">
              <h3 className="text-lg font-semibold">{v.title}</h3>
              <p className="mt-2 text-slate-700 dark:text-slate-300">{v.description}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="strengths-heading" className="bg-brand-800 px-4 py-14 text-white">
        <div className="mx-auto max-w-7xl">
          <SectionHeading id="strengths-heading" title="Key Strengths" className="[&_p]:text-blue-50" />
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {companyFacts.keyStrengths.map((s) => (
              <li key={s.title} className="rounded-xl bg-white/10 p-6">
                <h3 className="text-xl font-semibold text-amber-300">{s.title}</h3>
                <p className="mt-2 text-blue-50">{s.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="team-heading" className="mx-auto max-w-7xl px-4 py-14">
        <SectionHeading id="team-heading" title="Meet Our Team" intro="The people who answer for every project we take on." />
        <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-5">
          {team.map((m) => (
            <TeamCard key={m.name} member={m} />
          ))}
        </ul>
      </section>
    </>
  );
}
