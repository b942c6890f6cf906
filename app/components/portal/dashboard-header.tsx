import type { ReactNode } from 'react';
import { SignedInActions, SignedInTitle } from '../layout/signed-in-header.tsx';

/** The top bar of the client dashboard (the site header is hidden there; admin screens have AdminHeader). */
export function DashboardHeader({
  title,
  userName,
  onLogout,
  loggingOut,
  search,
  children,
}: {
  title: string;
  userName?: string;
  onLogout: () => void;
  loggingOut?: boolean;
  /** The search box, on its own row under the title (never inside the sideways-scrolling menu, which would clip its results). */
  search?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto max-w-screen-2xl px-4 py-3">
        <div className="flex items-start justify-between gap-3">
          <SignedInTitle title={title} userName={userName} />
          <SignedInActions onLogout={onLogout} loggingOut={loggingOut} />
        </div>
        {search ? <div className="mt-3">{search}</div> : null}
        {children ? (
          // On a phone the menu is one row that scrolls sideways (its links take the focus, so the
          // keyboard scrolls it too) rather than four rows before any content (issue 21); wider, it wraps.
          <nav
            aria-label="Dashboard"
            className="-mx-4 mt-2 flex gap-1 overflow-x-auto px-4 pb-1 sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0 [&>*]:shrink-0 [&>*]:whitespace-nowrap"
          >
            {children}
          </nav>
        ) : null}
      </div>
    </header>
  );
}
