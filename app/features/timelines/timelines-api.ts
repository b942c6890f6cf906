import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateTimelineBody, TimelineResponse, UpdateTimelineBody } from '../../../common/schemas/timelines.ts';
import { apiFetch } from '../../lib/api.ts';
import { projectTimelinesKey } from '../../lib/portal-query-keys.ts';

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
