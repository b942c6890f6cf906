import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Menu, X } from 'lucide-react';
import { clsx } from 'clsx';
import { company } from '../../../common/content/company.ts';
import { HEADER_LINKS, PATHS } from '../../../common/paths.ts';
import { hasSignedInHint } from '../../../common/session-hint.ts';
import { ThemeToggle } from './theme-toggle.tsx';

function AccountButton({ className }: { className?: string }) {
  const [signedIn, setSignedIn] = useState(false);
  const location = useLocation();
  useEffect(() => setSignedIn(hasSignedInHint()), [location.pathname]);
  return (
    <Link
      to={signedIn ? PATHS.clientDashboard : PATHS.clientLogin}
      className={clsx(
        'inline-flex min-h-11 items-center justify-center rounded-md bg-brand-700 px-3 text-sm font-semibold whitespace-nowrap text-white hover:bg-brand-800 sm:px-4',
        className,
      )}
    >
      {signedIn ? 'My Dashboard' : 'Client Login'}
    </Link>
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
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (!open) return;
    // Captured, and marked handled: one Escape closes the menu only, not also a toast underneath.
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        setOpen(false);
        menuButton.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open]);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur dark:border-slate-800 dark:bg-slate-950/95">
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
            className="inline-flex size-11 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 xl:hidden dark:text-slate-200 dark:hover:bg-slate-800"
            aria-expanded={open}
            aria-controls="mobile-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((v) => !v)}
          >
            {open ? <X className="size-6" aria-hidden="true" /> : <Menu className="size-6" aria-hidden="true" />}
          </button>
        </div>
      </div>
      <nav
        id="mobile-menu"
        aria-label="Main menu"
        hidden={!open}
        className="max-h-[calc(100vh-4rem)] overflow-y-auto border-t border-slate-200 bg-white px-4 pb-4 xl:hidden dark:border-slate-800 dark:bg-slate-950"
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
