import type { ReactNode } from 'react';

/** The card that holds a sign-in or password form, centred on the page. */
export function AuthCard({
  title,
  intro,
  children,
  icon,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-slate-50 px-4 py-10 sm:items-center dark:bg-slate-950">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {icon ? <div className="mb-4 flex justify-center text-brand-700 dark:text-sky-300">{icon}</div> : null}
        <h1 className="text-center text-2xl font-bold">{title}</h1>
        {intro ? <div className="mt-2 text-center text-sm text-slate-700 dark:text-slate-300">{intro}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/** The full-width submit button of the sign-in and password forms. */
export function submitClass(): string {
  return 'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200';
}

/** A text link (or a button that reads as one) under those forms. */
export const linkClass =
  'font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800 dark:text-sky-300 dark:hover:text-sky-200';
