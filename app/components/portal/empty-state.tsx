import { buttonClass } from '../button-class.ts';
import type { ReactNode } from 'react';

/** What a panel shows when it has nothing to show yet. */
export function EmptyState({ title, description, icon, children }: { title: string; description?: string; icon?: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center dark:border-slate-700">
      {icon ? <div className="text-slate-500 dark:text-slate-400">{icon}</div> : null}
      <p className="text-base font-semibold">{title}</p>
      {description ? <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">{description}</p> : null}
      {children}
    </div>
  );
}

/** A load failure inside a panel, with a way to try again. */
export function ErrorState({ title, error, onRetry }: { title: string; error?: unknown; onRetry?: () => void }) {
  const message = error instanceof Error ? error.message : undefined;
  return (
    <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-4 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <p className="font-semibold">{title}</p>
      {message && message !== title ? <p className="mt-1">{message}</p> : null}
      {onRetry ? (
        <button type="button" onClick={onRetry} className={`${buttonClass('secondary')} mt-3`}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

/** A small inline spinner with a text for screen readers and sighted users alike. */
export function InlineLoading({ label }: { label: string }) {
  return (
    <p role="status" className="flex items-center gap-2 py-4 text-sm text-slate-600 dark:text-slate-300">
      <span className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600" aria-hidden="true" />
      {label}
    </p>
  );
}
