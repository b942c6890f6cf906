import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { pageQuery } from '../../../common/schemas/pagination.ts';
import type { Report, ReportListResponse, ReportResponse, ReportVersionsResponse, UpdateReportResponse } from '../../../common/schemas/reports.ts';
import { apiFetch } from '../../lib/api.ts';
import { projectReportsKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';


/** A project's progress reports, newest first, a page at a time; idle without a project. */
export function useProjectReports(projectId: string | null | undefined) {
  return useInfiniteQuery({
    queryKey: projectReportsKey(projectId ?? 'none'),
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ReportListResponse>(`/reports/project/${projectId}${pageQuery(pageParam)}`, { signal, fallbackMessage: 'Failed to load project data' }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.page + 1 : undefined),
    enabled: Boolean(projectId),
    retry: retryUnlessClientError,
  });
}

export const reportsOf = (data: InfiniteData<ReportListResponse> | undefined): Report[] => data?.pages.flatMap((p) => p.reports) ?? [];

/** Sends a report as multipart: its fields, then each image as a repeated `images` file. */
export function useCreateReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, images }: { fields: Record<string, string>; images: File[] }) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      for (const image of images) form.append('images', image, image.name);
      return apiFetch<ReportResponse>('/reports', { method: 'POST', formData: form, fallbackMessage: 'Failed to create report' });
    },
    onSuccess: (res) => queryClient.invalidateQueries({ queryKey: projectReportsKey(res.report.projectId) }),
  });
}

/**
 * Sends a correction as multipart (PATCH /reports/{id}): the changed fields, new images, the ids of
 * removed ones, and whether to tell the client.
 */
export function useCorrectReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fields, images, removeImages, notifyClient }: { id: string; fields: Record<string, string>; images: File[]; removeImages: string[]; notifyClient: boolean }) => {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      if (removeImages.length > 0) form.append('removeImages', removeImages.join(','));
      if (notifyClient) form.append('notifyClient', 'true');
      for (const image of images) form.append('images', image, image.name);
      return apiFetch<UpdateReportResponse>(`/reports/${id}`, { method: 'PATCH', formData: form, fallbackMessage: 'Failed to update report' });
    },
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: reportVersionsKey(res.report._id) });
      return queryClient.invalidateQueries({ queryKey: projectReportsKey(res.report.projectId) });
    },
  });
}

const reportVersionsKey = (reportId: string) => ['reports', 'versions', reportId] as const;

/** A report's earlier versions (GET /reports/{id}/versions, staff), read while the History dialog is open. */
export function useReportVersions(reportId: string, enabled: boolean) {
  return useQuery({
    queryKey: reportVersionsKey(reportId),
    queryFn: ({ signal }) => apiFetch<ReportVersionsResponse>(`/reports/${reportId}/versions`, { signal, fallbackMessage: 'Failed to load the history' }),
    enabled,
    staleTime: 0,
    retry: retryUnlessClientError,
  });
}
