import { useQuery } from '@tanstack/react-query';
import type { MeUser } from '../../../common/schemas/auth.ts';
import { apiFetch, ApiRequestError } from '../../lib/api.ts';
import { clearSignedInHint } from '../../../common/session-hint.ts';

export const CURRENT_USER_KEY = ['auth', 'me'] as const;

/** The signed-in user, or null when nobody is (GET /auth/me; on error nothing, logged; no retry). */
async function fetchCurrentUser(): Promise<MeUser | null> {
  try {
    const res = await apiFetch<{ success: true; user: MeUser }>('/auth/me');
    return res.user;
  } catch (err) {
    if (err instanceof ApiRequestError && err.status === 401) clearSignedInHint(); // the session has ended
    else console.error('Could not load the signed-in user', err);
    return null;
  }
}

export function useCurrentUser() {
  return useQuery({ queryKey: CURRENT_USER_KEY, queryFn: fetchCurrentUser, retry: false, staleTime: 60_000 });
}
