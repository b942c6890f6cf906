import { ChevronLeft, ChevronRight } from 'lucide-react';
import type { Pagination } from '../../../common/schemas/pagination.ts';
import { buttonClass } from '../button-class.ts';

/**
 * Previous and Next of a list shown a page at a time (keyset paging, decision 257), with where the
 * page stands ("Page 2 of 7", announced when it changes). A missing handler: no page that way.
 */
export function PageNav({
  label,
  pagination,
  busy,
  onPrevious,
  onNext,
}: {
  label: string;
  pagination: Pagination | undefined;
  busy: boolean;
  onPrevious: (() => void) | null;
  onNext: (() => void) | null;
}) {
  const pages = pagination ? Math.max(1, Math.ceil(pagination.total / pagination.pageSize)) : null;
  return (
    <nav aria-label={label} className="mt-3 flex items-center justify-between gap-2">
      <button type="button" className={buttonClass('secondary')} onClick={onPrevious ?? undefined} disabled={!onPrevious || busy}>
        <ChevronLeft className="size-4" aria-hidden="true" />
        Previous
      </button>
      <p className="text-center text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
        {pagination && pages ? `Page ${Math.min(pagination.page, pages)} of ${pages}` : null}
      </p>
      <button type="button" className={buttonClass('secondary')} onClick={onNext ?? undefined} disabled={!onNext || busy}>
        Next
        <ChevronRight className="size-4" aria-hidden="true" />
      </button>
    </nav>
  );
}
