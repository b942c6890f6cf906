import type { ReactNode } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { buttonClass } from '../button-class.ts';

/**
 * Previous / "Page x of y" / Next under a paged staff list. Lists keep their page in the address,
 * so the pager only reports the page asked for; the list decides how to navigate.
 */
export function Pager({
  page,
  pages,
  onPage,
  label = 'Pages',
  status,
  busy = false,
  hasNext = page < pages,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** The navigation landmark's name; a screen with several lists names each. */
  label?: string;
  /** Replaces the "Page x of y" text, e.g. to add a count. */
  status?: ReactNode;
  /** While the next page loads, both buttons wait so a double click cannot skip a page. */
  busy?: boolean;
  /** Lists whose server says whether more follows pass that instead of counting pages. */
  hasNext?: boolean;
}) {
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-2">
      <button type="button" className={buttonClass('secondary')} disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
        <ChevronLeft className="size-4" aria-hidden="true" />
        Previous
      </button>
      {/* Announced, so screen-reader users hear that the page changed. On phones it takes its own
          line above the buttons, so a longer status (with a count) never squeezes into three lines. */}
      <p className="order-first w-full text-center text-sm text-slate-700 sm:order-none sm:w-auto sm:flex-1 dark:text-slate-300" aria-live="polite">
        {status ?? `Page ${page} of ${pages}`}
      </p>
      <button type="button" className={buttonClass('secondary')} disabled={!hasNext || busy} onClick={() => onPage(page + 1)}>
        Next
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
