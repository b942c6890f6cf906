import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { AuditFilter, AuditFilterOptions, AuditListResponse } from '../../../common/schemas/audit.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

/** The filter as a query string: only the fields that are set. */
function auditQuery(filter: AuditFilter, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filter, cursor })) if (value) params.set(key, value);
  return params.toString();
}

/** Where the CSV of the filtered log downloads from (a plain link: the browser streams it to a file). */
export const auditCsvUrl = (filter: AuditFilter) => `/api/audit/events.csv?${auditQuery(filter)}`;

/** The log, newest first, one page at a time by the cursor of the last row (keyset). */
export function useAuditEvents(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: ['audit', 'events', filter],
    queryFn: ({ pageParam, signal }) =>
      apiFetch<AuditListResponse>(`/audit/events?${auditQuery(filter, pageParam)}`, { signal, fallbackMessage: 'Failed to load the audit log' }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: retryUnlessClientError,
  });
}

export function useAuditFilterOptions() {
  return useQuery({
    queryKey: ['audit', 'filters'],
    queryFn: ({ signal }) => apiFetch<AuditFilterOptions>('/audit/filters', { signal, fallbackMessage: 'Failed to load the audit filters' }),
    retry: retryUnlessClientError,
  });
}
