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
        <SignedInTitle title={title} userName={userName} className="order-1 flex-1 lg:flex-none" />
        {search ? <div className="order-4 min-w-0 basis-full lg:order-2 lg:flex lg:flex-1 lg:basis-auto lg:justify-end lg:self-center">{search}</div> : null}
        <SignedInActions onLogout={onLogout} loggingOut={loggingOut} className="order-2 lg:order-3" />
        <div className="order-3 min-w-0 basis-full lg:order-4">{nav}</div>
      </div>
    </header>
  );
}
