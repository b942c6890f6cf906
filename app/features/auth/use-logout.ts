import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { PublicUser } from '../../../common/schemas/auth.ts';
import { PATHS } from '../../../common/paths.ts';
import { clearSignedInHint } from '../../../common/session-hint.ts';
import { logoutOnServer } from './auth-api.ts';
import { CURRENT_USER_KEY } from './use-current-user.ts';

/**
 * Logout as the specification has it: forget everything locally first (cached answers, the user,
 * the signed-in hint), then tell the server, ignoring failure, then go to the right login screen.
 * The server call is awaited before moving on, so the login screen never sees the old session.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const logout = useCallback(
    async (to?: string) => {
      const role = queryClient.getQueryData<PublicUser | null>(CURRENT_USER_KEY)?.role;
      setPending(true);
      queryClient.clear();
      queryClient.setQueryData(CURRENT_USER_KEY, null);
      clearSignedInHint();
      try {
        await logoutOnServer();
      } catch {
        // The specification: logout failures are ignored; the local state is already gone.
      }
      setPending(false);
      navigate(to ?? (role === 'admin' ? PATHS.adminLogin : PATHS.clientLogin), { replace: true });
    },
    [navigate, queryClient],
  );
  return { logout, pending };
}
