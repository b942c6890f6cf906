import { useQuery } from '@tanstack/react-query';
import type { TimelineListResponse } from '../../common/schemas/timelines.ts';
import { apiFetch } from './api.ts';
import { projectTimelinesKey } from './portal-query-keys.ts';
import { retryUnlessClientError } from './query-retry.ts';

/**
 * A project's timeline records (GET /gantt-charts/project/{projectId}); idle without a project. Here,
 * not in the timelines feature, because the payment plan's editor lists their tasks too (issue 26).
 */
export function useProjectTimelines(projectId: string | null | undefined) {
  return useQuery({
    queryKey: projectTimelinesKey(projectId ?? 'none'),
    queryFn: ({ signal }) => apiFetch<TimelineListResponse>(`/gantt-charts/project/${projectId}`, { signal, fallbackMessage: 'Failed to load project data' }),
    enabled: Boolean(projectId),
    retry: retryUnlessClientError,
  });
}
