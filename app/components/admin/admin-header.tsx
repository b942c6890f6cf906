import type { ReactNode } from 'react';
import { LogOut } from 'lucide-react';
import { company } from '../../../common/content/company.ts';
import { ThemeToggle } from '../layout/theme-toggle.tsx';
import { buttonClass } from '../button-class.ts';

/**
 * The top bar of every admin screen: the place's title and who is signed in, the search box, theme
 * and Logout, then the one admin navigation (issue 22; the client dashboard keeps DashboardHeader).
 */
export function AdminHeader({
  title,
  userName,
  onLogout,
  loggingOut,
  search,
  nav,
}: {
  title: string;
  userName?: string;
  onLogout: () => void;
  loggingOut?: boolean;
  /** The admin search box (issue 22, app/features/search): under the menu on phones, in the top row wider. */
  search?: ReactNode;
  nav: ReactNode;
}) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      {/*
        One search box, placed by order: on phones it takes the row under the navigation's Menu
        button; from lg it sits in the top row between the title and the actions, and the navigation
        takes a row of its own; the reading order follows the wide layout. (Two copies, one hidden per
        width, would both answer '/'.)
      */}
      <div className="mx-auto flex max-w-screen-2xl flex-wrap items-start gap-x-3 gap-y-2 px-4 py-3">
        <div className="order-1 min-w-0 flex-1 lg:flex-none">
          <p className="truncate text-xs font-semibold tracking-wide text-brand-700 uppercase dark:text-sky-300">{company.shortName}</p>
          <h1 className="text-xl font-bold sm:text-2xl">{title}</h1>
          {userName ? <p className="text-sm text-slate-600 dark:text-slate-300">Signed in as {userName}</p> : null}
        </div>
        {search ? <div className="order-4 min-w-0 basis-full lg:order-2 lg:flex lg:flex-1 lg:basis-auto lg:justify-end lg:self-center">{search}</div> : null}
        <div className="order-2 flex shrink-0 items-center gap-2 lg:order-3">
          <ThemeToggle />
          <button type="button" onClick={onLogout} disabled={loggingOut} className={buttonClass('secondary')}>
            <LogOut className="size-4" aria-hidden="true" />
            Logout
          </button>
        </div>
        <div className="order-3 min-w-0 basis-full lg:order-4">{nav}</div>
      </div>
    </header>
  );
}
