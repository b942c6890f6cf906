import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type { CreateProjectBody, Project, ProjectListResponse, ProjectResponse, ProjectStatus, UpdateProjectBody } from '../../../common/schemas/projects.ts';
import type { DeleteResponse } from '../../../common/schemas/archive.ts';
import type { ListView } from '../../components/portal/tidy-actions.tsx';
import { apiFetch } from '../../lib/api.ts';
import { FIRST_LIST_PAGE, listPageQuery, nextListPage } from '../../lib/list-pages.ts';
import { CLIENTS_KEY, clientProjectsKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';


/** A project list's filter and order (decision 248); both empty: the specification's default list. */
export type ProjectListView = ListView<ProjectStatus>;
export const DEFAULT_PROJECT_VIEW: ProjectListView = { status: '', sort: '' };

/**
 * A client's projects, a page at a time (GET /projects/client/{clientId}), filtered and ordered as
 * asked; idle without a client. Each view is cached under the client's key, so a change to the
 * client's projects (archive, restore, a live event) reads every view again.
 */
export function useClientProjects(clientId: string | null | undefined, view: ProjectListView = DEFAULT_PROJECT_VIEW) {
  // The default call sends neither, so the server keeps reading it with the session (decision 171).
  const extra = `${view.status ? `&status=${view.status}` : ''}${view.sort ? `&sort=${view.sort}` : ''}`;
  return useInfiniteQuery({
    queryKey: [...clientProjectsKey(clientId ?? 'none'), view.status, view.sort],
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ProjectListResponse>(`/projects/client/${clientId}${listPageQuery(pageParam)}${extra}`, { signal, fallbackMessage: 'Failed to load projects' }),
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
  queryClient.setQueriesData<InfiniteData<ProjectListResponse>>({ queryKey: clientProjectsKey(project.clientId._id) }, (data) =>
    data?.pages
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

/** Archives or restores a project (POST /projects/{id}/archive or /restore); every view of its client's list reads again. */
export function useArchiveProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      apiFetch<ProjectResponse>(`/projects/${id}/${archived ? 'archive' : 'restore'}`, { method: 'POST', fallbackMessage: archived ? 'Failed to archive the project' : 'Failed to restore the project' }),
    onSuccess: ({ project }) => queryClient.invalidateQueries({ queryKey: clientProjectsKey(project.clientId._id) }),
  });
}

/** Deletes a project (DELETE /projects/{id}); `confirmName` only for one with history. */
export function useDeleteProject(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName?: string }) =>
      apiFetch<DeleteResponse>(`/projects/${id}`, { method: 'DELETE', json: confirmName === undefined ? {} : { confirmName }, fallbackMessage: 'Failed to delete the project' }),
    onSuccess: () => {
      // The clients list counts each client's projects.
      void queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
      return queryClient.invalidateQueries({ queryKey: clientProjectsKey(clientId) });
    },
  });
}
