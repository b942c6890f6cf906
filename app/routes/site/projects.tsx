import type { ReactNode } from 'react';
import { Building2, Calendar, Factory, MapPin, Ruler, Ship, UserRound, type LucideIcon } from 'lucide-react';
import type { Route } from './+types/projects';
import { pageMeta } from '../../lib/seo.ts';
import { type MetaMatches, companyOfMatches, contentOf } from '../../lib/site-content.ts';
import { PATHS } from '../../../common/paths.ts';
import type { ShowcaseProject } from '../../../common/content/schemas.ts';
import { ResponsiveImage } from '../../features/site/responsive-image.tsx';
import { SectionHeading, SiteHero, StatGrid } from '../../features/site/site-sections.tsx';
import { NO_HYDRATION } from '../../lib/hydration.ts';
import { formatMonth } from '../../../common/dates.ts';

// Decision 140: served as HTML with the enhancement modules, never hydrated.
export const handle = NO_HYDRATION;

/** Decision 289: the page's content from the published snapshot (or a preview's draft). */
export function loader({ context }: Route.LoaderArgs) {
  return contentOf(context, ['projects', 'facts']);
}

export const meta = ({ matches }: { matches: MetaMatches }): Route.MetaDescriptors =>
  pageMeta(companyOfMatches(matches), {
    title: 'Our Projects',
    description: 'Selected oil and gas, infrastructure and marine projects delivered across the Niger Delta and beyond.',
    path: PATHS.projects,
  });

const CATEGORY_ICONS = [Building2, Factory, Ship];

/** "2023-11" as "November 2023". Fixed locale and time zone, so build and browser agree. */
const completionDate = (yyyyMm: string) => formatMonth(yyyyMm, 'long');

/** One line of a project card's facts: the icon, its words for screen readers, and the value. */
function Fact({ icon: Icon, term, children }: { icon: LucideIcon; term: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-2">
      <dt className="shrink-0">
        <Icon className="size-4 text-brand-700 dark:text-sky-300" aria-hidden="true" />
        <span className="sr-only">{term}</span>
      </dt>
      <dd>{children}</dd>
    </div>
  );
}

function ProjectCard({ project }: { project: ShowcaseProject }) {
  return (
    <li className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm sm:flex-row dark:border-slate-700 dark:bg-slate-900">
      {/* The column is sized here, not on the <img>: a percentage width inside the inline <picture> of a
          flex row resolved against the picture's own shrink-wrapped width (a 96 px thumbnail). */}
      <div className="shrink-0 sm:w-2/5">
        <ResponsiveImage
          image={project.image}
          alt={project.title}
          sizes="(min-width: 1280px) 245px, (min-width: 1024px) 20vw, (min-width: 640px) 40vw, 100vw"
          className="aspect-[4/3] h-auto w-full object-cover sm:h-full"
        />
      </div>
      <div className="flex-1 p-5">
        <h3 className="text-lg font-semibold">{project.title}</h3>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{project.description}</p>
        <dl className="mt-3 grid gap-1 text-sm">
          <Fact icon={MapPin} term="Location">
            {project.location}
          </Fact>
          {project.area ? (
            <Fact icon={Ruler} term="Area">
              {project.area}
            </Fact>
          ) : null}
          <Fact icon={Calendar} term="Completed">
            <time dateTime={project.date}>{completionDate(project.date)}</time>
          </Fact>
          <Fact icon={UserRound} term="Client">
            {project.client}
          </Fact>
        </dl>
      </div>
    </li>
  );
}

export default function ProjectsPage({ loaderData }: Route.ComponentProps) {
  const { projects: showcaseProjects, categories: projectCategories } = loaderData.projects;
  const { projectStatistics } = loaderData.facts;
  return (
    <>
      <SiteHero title="Our Projects" subtitle="A selection of the facilities, infrastructure and marine work we have delivered since 2011." />
      <section aria-labelledby="showcase-heading" className="mx-auto max-w-7xl px-4 py-16">
        <SectionHeading id="showcase-heading" title="Project Showcase" />
        <ul className="mt-10 grid gap-6 lg:grid-cols-2">
          {showcaseProjects.map((p) => (
            <ProjectCard key={p.title} project={p} />
          ))}
        </ul>
      </section>
      <section aria-labelledby="categories-heading" className="bg-slate-100 px-4 py-16 dark:bg-slate-900">
        <div className="mx-auto max-w-7xl">
          <SectionHeading id="categories-heading" title="Project Categories" />
          <ul className="mt-10 grid gap-6 md:grid-cols-3">
            {projectCategories.map((c, i) => {
              const Icon = CATEGORY_ICONS[i % CATEGORY_ICONS.length];
              return (
                <li key={c.title} className="rounded-xl bg-white p-6 shadow-sm dark:bg-slate-950">
                  <Icon className="size-8 text-brand-700 dark:text-sky-300" aria-hidden="true" />
                  <h3 className="mt-3 text-xl font-semibold">{c.title}</h3>
                  <p className="mt-2 text-slate-700 dark:text-slate-300">{c.description}</p>
                </li>
              );
            })}
          </ul>
        </div>
      </section>
      <StatGrid stats={projectStatistics} label="Our record in numbers" />
    </>
  );
}
