import { Link } from 'react-router';
import { clsx } from 'clsx';
import { Building2, Cog, DraftingCompass, Flame, Ship, Wrench, type LucideIcon } from 'lucide-react';
import type { Fact, Service } from '../../../common/content/schemas.ts';
import { PageHero } from './page-hero.tsx';
import { ResponsiveImage } from './responsive-image.tsx';

/** The heading band at the top of each content page, over its picture when it has one. */
export function SiteHero({ title, subtitle, image }: { title: string; subtitle: string; image?: string }) {
  return (
    <PageHero
      title={title}
      subtitle={subtitle}
      background={
        image ? (
          <div className="absolute inset-0 -z-10" aria-hidden="true">
            <ResponsiveImage image={image} alt="" sizes="100vw" priority className="h-full w-full object-cover opacity-30" />
          </div>
        ) : null
      }
    />
  );
}

export function SectionHeading({ id, title, intro, className }: { id?: string; title: string; intro?: string; className?: string }) {
  return (
    <div className={clsx('mx-auto max-w-3xl text-center', className)}>
      <h2 id={id} className="text-3xl font-bold sm:text-4xl">
        {title}
      </h2>
      {intro ? <p className="mt-3 text-lg text-slate-700 dark:text-slate-300">{intro}</p> : null}
    </div>
  );
}

/** A row of headline numbers. */
export function StatGrid({ stats, label }: { stats: Fact[]; label: string }) {
  return (
    <section aria-label={label} className="bg-brand-800 px-4 py-14 text-white">
      <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-8 text-center lg:grid-cols-4">
        {stats.map((s) => (
          <div key={s.label} className="flex flex-col-reverse">
            <dt className="mt-1 text-sm font-medium tracking-wide text-blue-100 uppercase">{s.label}</dt>
            <dd className="text-4xl font-bold text-amber-300">{s.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A closing band with one call to action. */
export function CallToAction({ title, text, linkLabel, to }: { title: string; text: string; linkLabel: string; to: string }) {
  return (
    <section className="bg-slate-100 px-4 py-16 dark:bg-slate-900">
      <div className="mx-auto max-w-3xl text-center">
        <h2 className="text-3xl font-bold">{title}</h2>
        <p className="mt-3 text-lg text-slate-700 dark:text-slate-300">{text}</p>
        <Link to={to} className="mt-8 inline-flex min-h-11 items-center rounded-md bg-brand-700 px-6 font-semibold text-white hover:bg-brand-800 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200">
          {linkLabel}
        </Link>
      </div>
    </section>
  );
}

const SERVICE_ICONS: Record<Service['icon'], LucideIcon> = {
  flame: Flame,
  'drafting-compass': DraftingCompass,
  wrench: Wrench,
  building: Building2,
  ship: Ship,
  cog: Cog,
};

const ICON_COLORS: Record<Service['color'], string> = {
  amber: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  sky: 'bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300',
  emerald: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  rose: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-300',
  indigo: 'bg-indigo-100 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-300',
  teal: 'bg-teal-100 text-teal-800 dark:bg-teal-950 dark:text-teal-300',
};

export function ServiceIcon({ service, className }: { service: Service; className?: string }) {
  const Icon = SERVICE_ICONS[service.icon];
  return (
    <span className={clsx('inline-flex size-12 items-center justify-center rounded-lg', ICON_COLORS[service.color], className)}>
      <Icon className="size-6" aria-hidden="true" />
    </span>
  );
}
