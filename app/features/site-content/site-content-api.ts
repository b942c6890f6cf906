import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  draftResponseSchema,
  publishResponseSchema,
  revisionListResponseSchema,
  RevisionDetail,
  SectionDetail,
  sectionListResponseSchema,
} from '../../../common/schemas/site-content.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

type Doc = Record<string, unknown>;
export type Draft = z.infer<typeof draftResponseSchema>['draft'];
const base = '/site-content/sections';
const keys = {
  list: ['site-content', 'sections'] as const,
  section: (s: string) => ['site-content', 'section', s] as const,
  revisions: (s: string) => ['site-content', 'revisions', s] as const,
  revision: (s: string, id: string) => ['site-content', 'revision', s, id] as const,
};

export function useSections() {
  return useQuery({
    queryKey: keys.list,
    queryFn: ({ signal }) => apiFetch<z.infer<typeof sectionListResponseSchema>>(base, { signal, fallbackMessage: 'Failed to load the website sections' }),
    retry: retryUnlessClientError,
  });
}

export function useSection(section: string) {
  return useQuery({
    queryKey: keys.section(section),
    queryFn: ({ signal }) => apiFetch<SectionDetail>(`${base}/${section}`, { signal, fallbackMessage: 'Failed to load this section' }),
    retry: retryUnlessClientError,
    // The editor holds its own copy while someone types; it is read again only when asked.
    refetchOnWindowFocus: false,
  });
}

export function useRevisions(section: string) {
  return useQuery({
    queryKey: keys.revisions(section),
    queryFn: ({ signal }) => apiFetch<z.infer<typeof revisionListResponseSchema>>(`${base}/${section}/revisions`, { signal, fallbackMessage: 'Failed to load the history' }),
    retry: retryUnlessClientError,
  });
}

export function useRevision(section: string, id: string | null) {
  return useQuery({
    queryKey: keys.revision(section, id ?? ''),
    queryFn: ({ signal }) => apiFetch<RevisionDetail>(`${base}/${section}/revisions/${id}`, { signal, fallbackMessage: 'Failed to load the revision' }),
    enabled: Boolean(id),
    retry: retryUnlessClientError,
  });
}

/** Saves, publishes, schedules and restores; each refreshes what it changed. */
export function useSectionActions(section: string) {
  const queryClient = useQueryClient();
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.list }), queryClient.invalidateQueries({ queryKey: keys.revisions(section) })]);
  // After a publish or a schedule the section itself changed too (its published side, its schedule).
  const refreshAll = async () => {
    await refresh();
    await queryClient.invalidateQueries({ queryKey: keys.section(section) });
  };
  const url = `${base}/${section}`;
  return {
    save: useMutation({
      mutationFn: (input: { version: number; document: Doc }) =>
        apiFetch<z.infer<typeof draftResponseSchema>>(`${url}/draft`, { method: 'PUT', json: input, fallbackMessage: 'The draft could not be saved' }),
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.list }),
    }),
    publish: useMutation({
      mutationFn: (version: number) =>
        apiFetch<z.infer<typeof publishResponseSchema>>(`${url}/publish`, { method: 'POST', json: { version }, fallbackMessage: 'The section could not be published' }),
      onSuccess: refreshAll,
    }),
    schedule: useMutation({
      mutationFn: (input: { version: number; publishAt: string }) => apiFetch(`${url}/schedule`, { method: 'PUT', json: input, fallbackMessage: 'The publish could not be scheduled' }),
      onSuccess: refreshAll,
    }),
    unschedule: useMutation({
      mutationFn: () => apiFetch(`${url}/schedule`, { method: 'DELETE', fallbackMessage: 'The schedule could not be withdrawn' }),
      onSuccess: refreshAll,
    }),
    restore: useMutation({
      mutationFn: (input: { id: string; version: number }) =>
        apiFetch<z.infer<typeof draftResponseSchema>>(`${url}/revisions/${input.id}/restore`, {
          method: 'POST',
          json: { version: input.version },
          fallbackMessage: 'The revision could not be restored',
        }),
      onSuccess: () => void refresh(),
    }),
  };
}
