import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { CreateProjectBody, Project, ProjectListResponse, ProjectResponse, ProjectStatus, UpdateProjectBody } from '../../../common/schemas/projects.ts';
import { apiFetch } from '../../lib/api.ts';
import { FIRST_LIST_PAGE, listPageQuery, nextListPage } from '../../lib/list-pages.ts';
import { CLIENTS_KEY, clientProjectsKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';


/** A client's projects, a page at a time (GET /projects/client/{clientId}); idle without a client. */
export function useClientProjects(clientId: string | null | undefined) {
  return useInfiniteQuery({
    queryKey: clientProjectsKey(clientId ?? 'none'),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ProjectListResponse>(`/projects/client/${clientId}${listPageQuery(pageParam)}`, { signal, fallbackMessage: 'Failed to load projects' }),
    initialPageParam: FIRST_LIST_PAGE,
    // 'Show more projects' goes on after the last project shown, by cursor (decision 257).
    getNextPageParam: nextListPage,
    enabled: Boolean(clientId),
    retry: retryUnlessClientError,
  });
}

export const projectsOf = (data: InfiniteData<ProjectListResponse> | undefined): Project[] => data?.pages.flatMap((p) => p.projects) ?? [];

export function useCreateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProjectBody) =>
      apiFetch<ProjectResponse>('/projects', { method: 'POST', json: body, fallbackMessage: 'Failed to create project' }),
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: clientProjectsKey(res.project.clientId._id) });
      // The clients list shows each client's project count.
      void queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
    },
  });
}

/** Puts the server's answer in place of the project in its client's loaded list. */
function replaceProject(queryClient: ReturnType<typeof useQueryClient>, project: Project) {
  queryClient.setQueryData<InfiniteData<ProjectListResponse>>(clientProjectsKey(project.clientId._id), (data) =>
    data
      ? { ...data, pages: data.pages.map((p) => ({ ...p, projects: p.projects.map((x) => (x._id === project._id ? project : x)) })) }
      : data,
  );
}

export function useUpdateProjectStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ProjectStatus }) =>
      apiFetch<ProjectResponse>(`/projects/${id}/status`, { method: 'PUT', json: { status }, fallbackMessage: 'Failed to update project status' }),
    onSuccess: ({ project }) => replaceProject(queryClient, project),
  });
}

/** Corrects a project (PATCH /projects/{id}): only the fields staff changed travel. */
export function useUpdateProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateProjectBody }) =>
      apiFetch<ProjectResponse>(`/projects/${id}`, { method: 'PATCH', json: changes, fallbackMessage: 'Failed to update project' }),
    onSuccess: ({ project }) => replaceProject(queryClient, project),
  });
}
