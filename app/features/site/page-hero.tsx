import type { ReactNode } from 'react';

/**
 * The heading band at the top of each page, without a picture module: the form pages (contact,
 * vendor registration) hydrate, and importing it alone keeps the other pages' sections and the
 * picture manifest out of their JavaScript (decision 144). SiteHero (site-sections.tsx) adds the
 * background picture.
 */
export function PageHero({ title, subtitle, background }: { title: string; subtitle: string; background?: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden bg-brand-800 px-4 py-16 text-white sm:py-24">
      {background ?? null}
      <div className="mx-auto max-w-4xl text-center">
        <h1 className="text-4xl font-bold sm:text-5xl">{title}</h1>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-blue-50 sm:text-xl">{subtitle}</p>
      </div>
    </section>
  );
}
