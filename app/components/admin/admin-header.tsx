import type { ReactNode } from 'react';
import { SignedInActions, SignedInTitle } from '../layout/signed-in-header.tsx';

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
  /** The admin search box (issue 22, app/features/search): beside the menu on phones, in the top row wider. */
  search?: ReactNode;
  nav: ReactNode;
}) {
  return (
    <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-screen-2xl gap-2 px-4 py-3">
        <div className="flex items-start justify-between gap-3">
          <SignedInTitle title={title} userName={userName} />
          {search ? <div className="hidden min-w-0 flex-1 justify-end self-center lg:flex">{search}</div> : null}
          <SignedInActions onLogout={onLogout} loggingOut={loggingOut} />
        </div>
        <div className="flex min-w-0 items-start gap-2">
          <div className="min-w-0 flex-1">{nav}</div>
          {search ? <div className="min-w-0 flex-1 lg:hidden">{search}</div> : null}
        </div>
      </div>
    </header>
  );
}
