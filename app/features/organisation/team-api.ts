import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InviteMemberBody, Member, MemberListResponse, UpdateMemberBody } from '../../../common/schemas/organisation.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

const TEAM_KEY = ['organisation', 'members'] as const;

/** The organisation's people and projects (GET /organisation/members; client admins only, decision 279). */
export function useTeam(enabled: boolean) {
  return useQuery({
    queryKey: TEAM_KEY,
    queryFn: ({ signal }) => apiFetch<MemberListResponse>('/organisation/members', { signal, fallbackMessage: 'Failed to load your team' }),
    retry: retryUnlessClientError,
    enabled,
  });
}

function useTeamChange<Input, Output>(call: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => queryClient.invalidateQueries({ queryKey: TEAM_KEY }) });
}

export const useInviteMember = () =>
  useTeamChange((body: InviteMemberBody) =>
    apiFetch<{ success: true; member: Member; invitationMail: MailOutcome }>('/organisation/members', { method: 'POST', json: body, fallbackMessage: 'Could not invite your colleague' }),
  );

export const useUpdateMember = () =>
  useTeamChange(({ id, changes }: { id: string; changes: UpdateMemberBody }) =>
    apiFetch<{ success: true; member: Member }>(`/organisation/members/${id}`, { method: 'PATCH', json: changes, fallbackMessage: 'Could not save the change' }),
  );

export const useRemoveMember = () =>
  useTeamChange((id: string) => apiFetch<{ success: true }>(`/organisation/members/${id}`, { method: 'DELETE', fallbackMessage: 'Could not remove your colleague' }));
