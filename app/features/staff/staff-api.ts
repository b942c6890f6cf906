import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffRole } from '../../../common/permissions.ts';
import type { StaffInviteBody, StaffMember } from '../../../common/schemas/staff.ts';
import type { MailOutcome } from '../../../common/schemas/mail.ts';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

const STAFF_KEY = ['staff'] as const;
type MemberResponse = { success: true; member: StaffMember };

export function useStaff() {
  return useQuery({
    queryKey: STAFF_KEY,
    queryFn: ({ signal }) => apiFetch<{ success: true; staff: StaffMember[] }>('/staff', { signal, fallbackMessage: 'Failed to load staff' }),
    retry: retryUnlessClientError,
  });
}

/** Every change answers with the member as it now is; the list is read again either way (another owner may have changed it). */
function useStaffChange<V, R extends MemberResponse>(request: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: request, onSettled: () => queryClient.invalidateQueries({ queryKey: STAFF_KEY }) });
}

export const useInviteStaff = () =>
  useStaffChange((body: StaffInviteBody) =>
    apiFetch<MemberResponse & { url: string; expiresAt: string; mail: MailOutcome }>('/staff', { method: 'POST', json: body, fallbackMessage: 'Failed to invite staff member' }),
  );

export const useChangeStaffRole = () =>
  useStaffChange(({ id, role }: { id: string; role: StaffRole }) =>
    apiFetch<MemberResponse>(`/staff/${id}/role`, { method: 'PATCH', json: { role }, fallbackMessage: 'Failed to change role' }),
  );

export const useSetStaffStatus = () =>
  useStaffChange(({ id, status }: { id: string; status: StaffMember['status'] }) =>
    apiFetch<MemberResponse>(`/staff/${id}/status`, { method: 'PATCH', json: { status }, fallbackMessage: 'Failed to change status' }),
  );
