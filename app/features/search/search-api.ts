import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { SEARCH_QUERY_MAX, SEARCH_QUERY_MIN, type SearchResponse } from '../../../common/schemas/search.ts';
import { apiFetch } from '../../lib/api.ts';

export type SearchScope = 'admin' | 'client';

/** True when the term is long enough to send (the server refuses shorter ones with a 400). */
export const searchable = (term: string) => term.trim().length >= SEARCH_QUERY_MIN;

/** Staff search everything; a client searches its own projects (two routes, decision 250). */
export function useSearch(scope: SearchScope, term: string) {
  const q = term.trim().slice(0, SEARCH_QUERY_MAX);
  return useQuery({
    queryKey: ['search', scope, q],
    queryFn: ({ signal }) =>
      apiFetch<SearchResponse>(`/search${scope === 'client' ? '/mine' : ''}?q=${encodeURIComponent(q)}`, { signal, fallbackMessage: 'Search failed' }),
    enabled: searchable(q),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  });
}
