import { useEffect, useId, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { clsx } from 'clsx';
import { Menu, X } from 'lucide-react';

export interface AdminNavItem {
  to: string;
  label: string;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: boolean | 'true' }>;
  /** Only this path is the place (the dashboard); otherwise its sub-pages are too (a blog post's editor). */
  end?: boolean;
  /** What waits there (unread messages, new applications); nothing is shown at 0 or while unknown. */
  count?: number;
  /** The words after the number for screen readers: '3 unread'. */
  countLabel?: string;
}

const linkClass = ({ isActive }: { isActive: boolean }) =>
  clsx(
    'flex min-h-11 items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold whitespace-nowrap lg:px-1 lg:text-[0.8125rem] 2xl:px-1.5 2xl:text-sm',
    'hover:bg-slate-100 dark:hover:bg-slate-800',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:focus-visible:outline-sky-300',
    // The current place: a bar under it and a tint, never colour alone.
    isActive
      ? 'bg-brand-50 text-brand-800 underline decoration-2 underline-offset-4 dark:bg-slate-800 dark:text-sky-200'
      : 'text-slate-800 dark:text-slate-100',
  );

function Count({ n, label }: { n: number; label: string }) {
  return (
    <span className="ml-auto inline-flex min-w-6 items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-bold text-white tabular-nums lg:ml-0 dark:bg-red-300 dark:text-slate-950">
      {/* Read as 'Contact messages, 3 unread'. */}
      <span className="sr-only">, </span>
      {n}
      <span className="sr-only"> {label}</span>
    </span>
  );
}

/**
 * The one navigation of the admin area (issue 22): every admin place, with what waits there counted,
 * and the current one marked `aria-current="page"` (NavLink sets it). Wide, it is one row of links;
 * narrower than 1024 px a 'Menu' button opens it as a panel (Escape, a click elsewhere or a chosen
 * link closes it, and the focus goes back to the button on Escape).
 */
export function AdminNav({ items, extra }: { items: AdminNavItem[]; /** After the links: the Account button. */ extra?: ReactNode }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const waiting = items.reduce((sum, i) => sum + (i.count ?? 0), 0);

  // A link chosen: the new page starts with the menu closed.
  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  return (
    <nav
      ref={root}
      aria-label="Admin"
      className="min-w-0"
      onKeyDown={(e) => {
        // Escape inside the Account dialog closes the dialog only (it lives in the panel).
        if (e.key === 'Escape' && open && !(e.target as Element).closest('dialog')) {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="inline-flex min-h-11 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100 lg:hidden dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? <X className="size-4" aria-hidden="true" /> : <Menu className="size-4" aria-hidden="true" />}
        Menu
        {waiting > 0 ? <Count n={waiting} label="waiting" /> : null}
      </button>
      <ul
        id={panelId}
        className={clsx(
          'mt-2 flex-col gap-1 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900',
          'lg:mt-0 lg:flex lg:flex-row lg:flex-wrap lg:items-center lg:gap-0 lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none dark:lg:bg-transparent',
          open ? 'flex' : 'hidden',
        )}
      >
        {items.map(({ to, label, icon: Icon, end, count, countLabel }) => (
          <li key={to}>
            <NavLink to={to} end={end} className={linkClass}>
              {/* In the one row (1024-1535 px) the words alone, so every place fits the row at 1280 px. */}
              <Icon className="size-4 shrink-0 lg:hidden 2xl:block" aria-hidden="true" />
              {label}
              {count ? <Count n={count} label={countLabel ?? 'new'} /> : null}
            </NavLink>
          </li>
        ))}
        {extra ? <li className="[&>button]:w-full [&>button]:justify-start [&>button]:px-3 lg:[&>button]:w-auto lg:[&>button]:px-1 lg:[&>button]:text-[0.8125rem] 2xl:[&>button]:text-sm lg:[&>button>svg]:hidden 2xl:[&>button>svg]:block">{extra}</li> : null}
      </ul>
    </nav>
  );
}
