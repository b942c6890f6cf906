import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApprovalListResponse, ApprovalResponse, ApprovalSubject, CreateApprovalBody, DecideApprovalBody, WaitingResponse } from '../../../common/schemas/approvals.ts';
import type { ProjectDocument } from '../../../common/schemas/documents.ts';
import type { ReportListResponse } from '../../../common/schemas/reports.ts';
import type { TimelineListResponse } from '../../../common/schemas/timelines.ts';
import { apiFetch } from '../../lib/api.ts';
import { projectApprovalsKey, WAITING_KEY } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

/** A project's approval requests and decisions, newest first. */
export function useProjectApprovals(projectId: string) {
  return useQuery({
    queryKey: projectApprovalsKey(projectId),
    queryFn: ({ signal }) => apiFetch<ApprovalListResponse>(`/approvals/project/${projectId}`, { signal, fallbackMessage: 'Failed to load approvals' }),
    retry: retryUnlessClientError,
  });
}

/** 'Waiting on you': what waits on the signed-in side, oldest first (live: approval events make it stale). */
export function useWaitingOn() {
  return useQuery({
    queryKey: WAITING_KEY,
    queryFn: ({ signal }) => apiFetch<WaitingResponse>('/approvals/waiting', { signal, fallbackMessage: 'Failed to load what is waiting' }),
    retry: retryUnlessClientError,
  });
}

function useRefreshApprovals() {
  const queryClient = useQueryClient();
  return (projectId: string) =>
    Promise.all([queryClient.invalidateQueries({ queryKey: projectApprovalsKey(projectId) }), queryClient.invalidateQueries({ queryKey: WAITING_KEY })]);
}

export function useRequestApproval() {
  const refresh = useRefreshApprovals();
  return useMutation({
    mutationFn: (body: CreateApprovalBody) => apiFetch<ApprovalResponse>('/approvals', { method: 'POST', json: body, fallbackMessage: 'Failed to ask for approval' }),
    onSuccess: (res) => refresh(res.approval.projectId),
  });
}

export function useDecideApproval() {
  const refresh = useRefreshApprovals();
  return useMutation({
    mutationFn: ({ id, ...body }: DecideApprovalBody & { id: string }) =>
      apiFetch<ApprovalResponse>(`/approvals/${id}/decision`, { method: 'POST', json: body, fallbackMessage: 'Failed to record your decision' }),
    onSuccess: (res) => refresh(res.approval.projectId),
  });
}

export function useCloseApproval() {
  const refresh = useRefreshApprovals();
  return useMutation({
    mutationFn: (id: string) => apiFetch<ApprovalResponse>(`/approvals/${id}/close`, { method: 'POST', fallbackMessage: 'Failed to close the request' }),
    onSuccess: (res) => refresh(res.approval.projectId),
  });
}

export interface SubjectOption {
  value: string;
  label: string;
  subject: ApprovalSubject;
}

/** What staff may ask the client to approve on a project: its reports (first page) and completed milestones. */
export function useApprovalSubjects(projectId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['approvals', 'subjects', projectId],
    enabled,
    staleTime: 0,
    queryFn: async ({ signal }): Promise<SubjectOption[]> => {
      const [reports, timelines, documents] = await Promise.all([
        apiFetch<ReportListResponse>(`/reports/project/${projectId}?page=1&pageSize=50`, { signal }),
        apiFetch<TimelineListResponse>(`/gantt-charts/project/${projectId}`, { signal }),
        apiFetch<{ documents: ProjectDocument[] }>(`/projects/${projectId}/documents`, { signal }),
      ]);
      return [
        // A document's current version, when the client can see it (decision 292).
        ...documents.documents
          .filter((d) => d.visibleToClient)
          .map((d) => ({ value: `document:${d.current._id}`, label: `Document: ${d.title}, ${d.current.label}`, subject: { type: 'document' as const, documentVersionId: d.current._id } })),
        ...reports.reports.map((r) => ({ value: `report:${r._id}`, label: `Progress report of ${r.date} (version ${r.version})`, subject: { type: 'report' as const, reportId: r._id } })),
        ...timelines.timelines.flatMap((tl) =>
          tl.tasks.flatMap((task, taskIndex) =>
            task.status === 'completed' ? [{ value: `milestone:${tl._id}:${taskIndex}`, label: `Milestone: ${task.task} (${tl.projectTitle})`, subject: { type: 'milestone' as const, timelineId: tl._id, taskIndex } }] : [],
          ),
        ),
      ];
    },
  });
}
