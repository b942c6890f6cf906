import { useEffect, useState } from 'react';
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import type {
  Client,
  ClientListResponse,
  ClientResponse,
  ClientStatus,
  CreateClientBody,
  CreateClientResponse,
  UpdateClientBody,
  UpdateClientResponse,
  UsernameCheckResponse,
} from '../../../common/schemas/clients.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import type { DeleteResponse } from '../../../common/schemas/archive.ts';
import type { ListView } from '../../components/portal/tidy-actions.tsx';
import { apiFetch } from '../../lib/api.ts';
import { FIRST_LIST_PAGE, listPageQuery, nextListPage, previousListPage } from '../../lib/list-pages.ts';
import { CLIENTS_KEY, MAIL_STATUS_KEY } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';


/** The staff list's filter and order (decision 248); both empty: the specification's default list. */
export type ClientListView = ListView<ClientStatus>;

/**
 * The clients, one page at a time (GET /users/clients), filtered and ordered as asked. Next and
 * Previous follow the list's cursors (decision 257) and replace the page shown (`maxPages: 1`), so
 * the hundredth page costs what the first does and a refresh reads the page on screen again.
 */
export function useClients(view: ClientListView = { status: '', sort: '' }, enabled = true) {
  const extra = `${view.status ? `&status=${view.status}` : ''}${view.sort ? `&sort=${view.sort}` : ''}`;
  return useInfiniteQuery({
    queryKey: [...CLIENTS_KEY, view.status, view.sort],
    queryFn: ({ pageParam, signal }) => apiFetch<ClientListResponse>(`/users/clients${listPageQuery(pageParam)}${extra}`, { signal, fallbackMessage: 'Failed to load clients' }),
    initialPageParam: FIRST_LIST_PAGE,
    maxPages: 1,
    getNextPageParam: nextListPage,
    getPreviousPageParam: previousListPage,
    retry: retryUnlessClientError,
    enabled,
  });
}

/** The loaded clients, in order. */
export const clientsOf = (data: InfiniteData<ClientListResponse> | undefined): Client[] => data?.pages.flatMap((p) => p.clients) ?? [];

function replaceClient(queryClient: ReturnType<typeof useQueryClient>, client: Client) {
  queryClient.setQueriesData<InfiniteData<ClientListResponse>>({ queryKey: CLIENTS_KEY }, (data) =>
    data?.pages
      ? { ...data, pages: data.pages.map((p) => ({ ...p, clients: p.clients.map((c) => (c._id === client._id ? client : c)) })) }
      : data,
  );
}

/** Archives or restores a client (POST /users/clients/{id}/archive or /restore); every list reads again. */
export function useArchiveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }: { id: string; archived: boolean }) =>
      apiFetch<ClientResponse>(`/users/clients/${id}/${archived ? 'archive' : 'restore'}`, { method: 'POST', fallbackMessage: archived ? 'Failed to archive the client' : 'Failed to restore the client' }),
    // The new record first, so a page that keeps the chosen client sees it archived before it leaves the list.
    onSuccess: (res) => replaceClient(queryClient, res.client),
    onSettled: () => queryClient.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

/** Deletes a client (DELETE /users/clients/{id}); `confirmName` only for one with history. */
export function useDeleteClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, confirmName }: { id: string; confirmName?: string }) =>
      apiFetch<DeleteResponse>(`/users/clients/${id}`, { method: 'DELETE', json: confirmName === undefined ? {} : { confirmName }, fallbackMessage: 'Failed to delete the client' }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: CLIENTS_KEY }),
  });
}

export function useCreateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateClientBody) =>
      apiFetch<CreateClientResponse>('/users/clients', { method: 'POST', json: body, fallbackMessage: 'Failed to create client' }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: USERNAME_CHECK_KEY });
      void queryClient.invalidateQueries({ queryKey: MAIL_STATUS_KEY });
      return queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
    },
  });
}

/** The new client's username is taken now: every answer about usernames is out of date. */
const USERNAME_CHECK_KEY = ['client-username'] as const;
/** How long typing pauses before the username is checked. */
const USERNAME_CHECK_DELAY_MS = 300;

/** The value once it has stopped changing for a moment. */
function useSettled<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/**
 * The add-client form's check (GET /users/clients/username-check), once typing pauses: whether the
 * username is free, and a free one made from it or from the client's name.
 */
export function useUsernameCheck(input: { username: string; name: string }) {
  const settled = useSettled({ username: input.username.trim().toLowerCase(), name: input.name.trim() }, USERNAME_CHECK_DELAY_MS);
  const asked = settled.username || settled.name;
  const query = useQuery({
    queryKey: [...USERNAME_CHECK_KEY, settled.username, settled.name],
    queryFn: ({ signal }) =>
      apiFetch<UsernameCheckResponse>(`/users/clients/username-check?${new URLSearchParams(settled)}`, { signal, fallbackMessage: 'Could not check the username' }),
    enabled: Boolean(asked),
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: retryUnlessClientError,
  });
  // An answer about what is on screen now, not about what was typed before.
  const current = query.data && !query.isPlaceholderData && !query.isFetching && settled.username === input.username.trim().toLowerCase() && settled.name === input.name.trim();
  return { data: current ? query.data : undefined, checking: Boolean(asked) && !current && !query.isError };
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
      apiFetch<{ success: true; url: string; expiresAt: string; mail: MailOutcome }>(`/auth/invitations/${client._id}`, { method: 'POST', fallbackMessage: 'Failed to resend invitation' }),
    // Also after a failure: a refusal (say, the client has just set a password) means the list is out of date.
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MAIL_STATUS_KEY });
      return queryClient.invalidateQueries({ queryKey: CLIENTS_KEY });
    },
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

/** Corrects a client (PATCH /users/clients/{id}): only the fields staff changed travel. */
export function useUpdateClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateClientBody }) =>
      apiFetch<UpdateClientResponse>(`/users/clients/${id}`, { method: 'PATCH', json: changes, fallbackMessage: 'Failed to update client' }),
    onSuccess: (res) => {
      replaceClient(queryClient, res.client);
      void queryClient.invalidateQueries({ queryKey: USERNAME_CHECK_KEY });
      if (res.invitation) void queryClient.invalidateQueries({ queryKey: MAIL_STATUS_KEY });
    },
  });
}
