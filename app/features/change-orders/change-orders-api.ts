import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChangeOrderListResponse, CreateChangeOrderBody, DecideChangeOrderBody, UpdateChangeOrderBody } from '../../../common/schemas/change-orders.ts';
import { apiFetch } from '../../lib/api.ts';
import { clientProjectsKey, projectChangeOrdersKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

/** A decided change order's PDF certificate (a plain download link: the browser sends the session cookie). */
export const changeOrderCertificateUrl = (id: string) => `/api/change-orders/${id}/certificate`;

/** A project's change orders and contract history (a client gets those sent). */
export function useChangeOrders(projectId: string) {
  return useQuery({
    queryKey: projectChangeOrdersKey(projectId),
    queryFn: ({ signal }) => apiFetch<ChangeOrderListResponse>(`/change-orders/project/${projectId}`, { signal, fallbackMessage: 'Failed to load change orders' }),
    retry: retryUnlessClientError,
  });
}

type Action =
  | { kind: 'create'; body: CreateChangeOrderBody }
  | { kind: 'attach'; id: string; file: File }
  | { kind: 'detach'; id: string; attachmentId: string }
  | { kind: 'update'; id: string; body: UpdateChangeOrderBody }
  | { kind: 'send' | 'withdraw'; id: string }
  | { kind: 'decide'; id: string; body: DecideChangeOrderBody }
  | { kind: 'delete'; id: string };

/** Every change order write of one project; the list (and, after a decision, the project lists) read again. */
export function useChangeOrderAction(projectId: string, clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: Action) => {
      switch (a.kind) {
        case 'create':
          return apiFetch(`/change-orders/project/${projectId}`, { method: 'POST', json: a.body, fallbackMessage: 'Failed to save the change order' });
        case 'update':
          return apiFetch(`/change-orders/${a.id}`, { method: 'PATCH', json: a.body, fallbackMessage: 'Failed to save the change order' });
        case 'attach': {
          // Multipart, one file per request (decision 296): the server checks it by its bytes.
          const form = new FormData();
          form.append('file', a.file, a.file.name);
          return apiFetch(`/change-orders/${a.id}/attachments`, { method: 'POST', formData: form, fallbackMessage: `Failed to attach ${a.file.name}` });
        }
        case 'detach':
          return apiFetch(`/change-orders/${a.id}/attachments/${a.attachmentId}`, { method: 'DELETE', fallbackMessage: 'Failed to remove the attachment' });
        case 'send':
        case 'withdraw':
          return apiFetch(`/change-orders/${a.id}/${a.kind}`, { method: 'POST', fallbackMessage: `Failed to ${a.kind} the change order` });
        case 'decide':
          return apiFetch(`/change-orders/${a.id}/decision`, { method: 'POST', json: a.body, fallbackMessage: 'Failed to record the decision' });
        case 'delete':
          return apiFetch(`/change-orders/${a.id}`, { method: 'DELETE', fallbackMessage: 'Failed to delete the draft' });
      }
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: clientProjectsKey(clientId) });
      return queryClient.invalidateQueries({ queryKey: projectChangeOrdersKey(projectId) });
    },
  });
}
