import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type {
  Client,
  ClientListResponse,
  ClientResponse,
  ClientStatus,
  CreateClientBody,
  CreateClientResponse,
} from '../../../common/schemas/clients.ts';
import { pageQuery } from '../../../common/schemas/pagination.ts';
import { apiFetch } from '../../lib/api.ts';
import { CLIENTS_KEY } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';


/** Every client, a page at a time (GET /users/clients). */
export function useClients() {
  return useInfiniteQuery({
    queryKey: CLIENTS_KEY,
    queryFn: ({ pageParam, signal }) => apiFetch<ClientListResponse>(`/users/clients${pageQuery(pageParam)}`, { signal, fallbackMessage: 'Failed to load clients' }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.hasMore ? last.pagination.page + 1 : undefined),
    retry: retryUnlessClientError,
  });
}

/** The loaded clients, in order. */
export const clientsOf = (data: InfiniteData<ClientListResponse> | undefined): Client[] => data?.pages.flatMap((p) => p.clients) ?? [];

function replaceClient(queryClient: ReturnType<typeof useQueryClient>, client: Client) {
  queryClient.setQueryData<InfiniteData<ClientListResponse>>(CLIENTS_KEY, (data) =>
    data
      ? { ...data, pages: data.pages.map((p) => ({ ...p, clients: p.clients.map((c) => (c._id === client._id ? client : c)) })) }
      : data,
  );
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateClientBody) =>
      apiFetch<CreateClientResponse>('/users/clients', { method: 'POST', json: body, fallbackMessage: 'Failed to create client' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

export function useUpdateClientStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: ClientStatus }) =>
      apiFetch<ClientResponse>(`/users/clients/${id}/status`, { method: 'PUT', json: { status }, fallbackMessage: 'Failed to update status' }),
    onSuccess: (res) => replaceClient(queryClient, res.client),
  });
}

/** Resends a client's invitation (POST /auth/invitations/:userId): a new 7-day link, e-mailed and returned; the old one stops working. */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (client: Pick<Client, '_id'>) =>
      apiFetch<{ success: true; url: string; expiresAt: string }>(`/auth/invitations/${client._id}`, { method: 'POST', fallbackMessage: 'Failed to resend invitation' }),
    // Also after a failure: a refusal (say, the client has just set a password) means the list is out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

/** Revokes a client's pending invitation (DELETE /auth/invitations/:userId). */
export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (client: Pick<Client, '_id'>) =>
      apiFetch<{ success: true; revoked: boolean }>(`/auth/invitations/${client._id}`, { method: 'DELETE', fallbackMessage: 'Failed to revoke invitation' }),
    // Also after a failure: a refusal (say, the client has just set a password) means the list is out of date.
    onSettled: () => queryClient.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}
