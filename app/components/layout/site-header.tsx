import { Link, NavLink, useLocation } from 'react-router';
import { Menu, X } from 'lucide-react';
import { clsx } from 'clsx';
import { useSection } from '../../lib/site-content.ts';
import { HEADER_LINKS, PATHS } from '../../../common/paths.ts';
import { enhanceAccountLink } from '../../enhance/account-link.ts';
import { enhanceMobileMenu } from '../../enhance/mobile-menu.ts';
import { useEnhance } from '../../lib/use-enhance.ts';
import { ThemeToggle } from './theme-toggle.tsx';

function AccountButton({ className }: { className?: string }) {
  const location = useLocation();
  const ref = useEnhance<HTMLAnchorElement>(enhanceAccountLink, location.pathname);
  return (
    <a
      ref={ref}
      href={PATHS.clientLogin}
      data-module="account-link"
      className={clsx(
        'inline-flex min-h-11 items-center justify-center rounded-md bg-brand-700 px-3 text-sm font-semibold whitespace-nowrap text-white hover:bg-brand-800 sm:px-4',
        className,
      )}
    >
      Client Login
    </a>
  );
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  clsx(
    'rounded-md px-1.5 py-2 text-sm font-medium whitespace-nowrap 2xl:px-2',
    isActive
      ? 'text-brand-700 underline decoration-2 underline-offset-8 dark:text-sky-300'
      : 'text-slate-700 hover:text-brand-700 dark:text-slate-200 dark:hover:text-sky-300',
  );

export function SiteHeader() {
  const location = useLocation();
  // A route change (pages React hydrates) closes the menu: the module is undone and wired again.
  const menuButton = useEnhance<HTMLButtonElement>(enhanceMobileMenu, location.pathname);
  const company = useSection('company');

  return (
    <header className="group/header fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-3 px-4">
        <Link to={PATHS.home} className="flex shrink-0 items-center gap-2 font-bold whitespace-nowrap text-brand-700 dark:text-sky-300">
          <svg viewBox="0 0 32 32" className="size-8" aria-hidden="true">
            <rect width="32" height="32" rx="6" fill="currentColor" />
            <path d="M9 8v16M9 16l10-8M9 16l10 8" stroke="#fff" strokeWidth="3" fill="none" strokeLinecap="round" />
          </svg>
          <span>{company.shortName}</span>
        </Link>
        <nav aria-label="Main" className="hidden xl:block">
          <ul className="flex items-center gap-0.5 2xl:gap-1">
            {HEADER_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.to === PATHS.home} className={linkClass}>
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          <ThemeToggle />
          <AccountButton />
          <button
            ref={menuButton}
            type="button"
            data-module="mobile-menu"
            popoverTarget="mobile-menu"
            className="inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 xl:hidden dark:text-slate-200 dark:hover:bg-slate-800"
            aria-label="Open menu"
          >
            {/* No aria-expanded: a popovertarget button exposes the open state itself (and the attribute is invalid there). */}
            <Menu className="size-6 group-has-[#mobile-menu:popover-open]/header:hidden" aria-hidden="true" />
            <X className="hidden size-6 group-has-[#mobile-menu:popover-open]/header:block" aria-hidden="true" />
          </button>
        </div>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Main menu"
        popover="auto"
        className="fixed inset-x-0 top-16 bottom-auto m-0 max-h-[calc(100dvh-4rem)] w-full max-w-none overflow-y-auto border-0 border-t border-b-2 border-slate-200 border-b-brand-700 bg-white px-4 pb-4 text-inherit shadow-2xl backdrop:top-16 backdrop:bg-slate-950/60 xl:hidden dark:border-slate-800 dark:border-b-sky-300 dark:bg-slate-950 dark:backdrop:bg-black/70"
      >
        <ul className="flex flex-col py-2">
          {HEADER_LINKS.map((link) => (
            <li key={link.to}>
              <NavLink to={link.to} end={link.to === PATHS.home} className={({ isActive }) => clsx(linkClass({ isActive }), 'block min-h-11 py-3')}>
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
