import type { ReactNode } from 'react';
import { EmptyState, ErrorState, InlineLoading } from '../portal/empty-state.tsx';

/**
 * What a loaded list shows: loading, the failure with a retry, the empty state, or (only once the
 * items are there) what `children` renders of them.
 */
export function ListStates<T>({
  isPending,
  error,
  items,
  loadingLabel,
  errorTitle,
  onRetry,
  empty,
  children,
}: {
  isPending: boolean;
  error: unknown;
  items: readonly T[] | undefined;
  loadingLabel: string;
  errorTitle: string;
  onRetry: () => void;
  empty: { icon: ReactNode; title: string; description: string };
  children: (items: readonly T[]) => ReactNode;
}) {
  if (isPending) return <InlineLoading label={loadingLabel} />;
  if (error || !items) return <ErrorState title={errorTitle} error={error} onRetry={onRetry} />;
  if (!items.length) return <EmptyState icon={empty.icon} title={empty.title} description={empty.description} />;
  return <>{children(items)}</>;
}
