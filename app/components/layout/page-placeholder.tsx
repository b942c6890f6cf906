import type { ReactNode } from 'react';

/** A page heading with a short introduction; later work replaces placeholders with the full screens. */
export function PageHero({ title, subtitle, children }: { title: string; subtitle?: string; children?: ReactNode }) {
  return (
    <section className="bg-gradient-to-br from-brand-800 to-brand-600 px-4 py-16 text-white sm:py-24">
      <div className="mx-auto max-w-5xl text-center">
        <h1 className="text-3xl font-bold sm:text-5xl">{title}</h1>
        {subtitle ? <p className="mx-auto mt-4 max-w-2xl text-lg text-blue-50">{subtitle}</p> : null}
        {children}
      </div>
    </section>
  );
}
