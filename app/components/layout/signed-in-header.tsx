import { LogOut } from 'lucide-react';
import { useSection } from '../../lib/site-content.ts';
import { buttonClass } from '../button-class.ts';
import { ThemeToggle } from './theme-toggle.tsx';

// The admin and the client portal headers share their title block and their buttons; only the
// search and menu placement differ between them.

export function SignedInTitle({ title, userName, className = '' }: { title: string; userName?: string; className?: string }) {
  const company = useSection('company');
  return (
    <div className={`min-w-0 ${className}`}>
      <p className="truncate text-xs font-semibold tracking-wide text-brand-700 uppercase dark:text-sky-300">{company.shortName}</p>
      <h1 className="text-xl font-bold sm:text-2xl">{title}</h1>
      {userName ? <p className="text-sm text-slate-600 dark:text-slate-300">Signed in as {userName}</p> : null}
    </div>
  );
}

export function SignedInActions({ onLogout, loggingOut, className = '' }: { onLogout: () => void; loggingOut?: boolean; className?: string }) {
  return (
    <div className={`flex shrink-0 items-center gap-2 ${className}`}>
      <ThemeToggle />
      <button type="button" onClick={onLogout} disabled={loggingOut} className={buttonClass('secondary')}>
        <LogOut className="size-4" aria-hidden="true" />
        Logout
      </button>
    </div>
  );
}
