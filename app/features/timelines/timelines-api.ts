import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTimelineBody, TimelineListResponse, TimelineResponse, UpdateTimelineBody } from '../../../common/schemas/timelines.ts';
import { apiFetch } from '../../lib/api.ts';
import { projectTimelinesKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';


/** A project's timeline records (GET /gantt-charts/project/{projectId}); idle without a project. */
export function useProjectTimelines(projectId: string | null | undefined) {
  return useQuery({
    queryKey: projectTimelinesKey(projectId ?? 'none'),
    queryFn: ({ signal }) => apiFetch<TimelineListResponse>(`/gantt-charts/project/${projectId}`, { signal, fallbackMessage: 'Failed to load project data' }),
    enabled: Boolean(projectId),
    retry: retryUnlessClientError,
  });
}

/** Creates (POST) or replaces (PUT) a timeline record. */
export function useSaveTimeline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CreateTimelineBody }) => {
      if (id) {
        const update: UpdateTimelineBody = { projectTitle: body.projectTitle, tasks: body.tasks };
        return apiFetch<TimelineResponse>(`/gantt-charts/${id}`, { method: 'PUT', json: update, fallbackMessage: 'Failed to save timeline' });
      }
      return apiFetch<TimelineResponse>('/gantt-charts', { method: 'POST', json: body, fallbackMessage: 'Failed to save timeline' });
    },
    onSuccess: (res) => queryClient.invalidateQueries({ queryKey: projectTimelinesKey(res.timeline.projectId) }),
  });
}
