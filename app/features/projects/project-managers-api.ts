import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ProjectManagersResponse } from '../../../common/schemas/project-managers.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

// A project's project managers (decision 277): owners and admins read and change them; anyone else
// gets 403, and the card then shows no control at all.

const managersKey = (projectId: string) => ['project-managers', projectId] as const;

export function useProjectManagers(projectId: string) {
  return useQuery({
    queryKey: managersKey(projectId),
    queryFn: ({ signal }) => apiFetch<ProjectManagersResponse>(`/projects/${projectId}/managers`, { signal, fallbackMessage: 'Failed to load project managers' }),
    retry: retryUnlessClientError,
  });
}

export function useSetProjectManagers(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (managerIds: string[]) =>
      apiFetch<ProjectManagersResponse>(`/projects/${projectId}/managers`, { method: 'PUT', json: { managerIds }, fallbackMessage: 'Failed to save project managers' }),
    onSuccess: (res) => queryClient.setQueryData(managersKey(projectId), res),
  });
}
