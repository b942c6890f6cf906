import type { ComponentProps, ReactNode } from 'react';
import { ErrorState, InlineLoading } from '../portal/empty-state.tsx';
import { ScrollTable } from './scroll-table.tsx';

/**
 * A loaded, paged table: loading, the failure with a retry, the empty state, or (only once the
 * items are there) one row per item, whose cells `children` renders, and the pager under the table.
 */
export function PagedTable<T extends { _id: string }>({
  query,
  loading,
  failed,
  onRetry,
  empty,
  table,
  pager,
  children,
}: {
  query: { isPending: boolean; error: unknown; items: readonly T[] | undefined };
  loading: string;
  failed: string;
  onRetry: () => void;
  /** The EmptyState shown when the list has no items. */
  empty: ReactNode;
  table: Omit<ComponentProps<typeof ScrollTable>, 'children'>;
  pager: ReactNode;
  children: (item: T) => ReactNode;
}) {
  const { isPending, error, items } = query;
  if (isPending) return <InlineLoading label={loading} />;
  if (error || !items) return <ErrorState title={failed} error={error} onRetry={onRetry} />;
  if (!items.length) return empty;
  return (
    <>
      <ScrollTable {...table}>
        {items.map((item) => (
          <tr key={item._id} className="border-b border-slate-100 dark:border-slate-800">
            {children(item)}
          </tr>
        ))}
      </ScrollTable>
      {pager}
    </>
  );
}
