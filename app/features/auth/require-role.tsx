import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { LoadingView } from '../../components/layout/loading-view.tsx';
import { PATHS } from '../../../common/paths.ts';
import { useCurrentUser } from './use-current-user.ts';

/**
 * The specification's guards: a non-client on the client route goes to /s/login; a non-admin on an
 * admin route goes to /secured/v1/login; the loading view shows while the signed-in state loads.
 * (The server checks every call anyway; this only decides what to show.)
 */
export function RequireRole({ role, children }: { role: 'client' | 'admin'; children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <LoadingView />;
  if (!user || user.role !== role) return <Navigate to={role === 'admin' ? PATHS.adminLogin : PATHS.clientLogin} replace />;
  return <>{children}</>;
}

/** Login routes are for signed-out users: a signed-in admin goes to the admin area, anyone else to the client dashboard. */
export function RequireSignedOut({ children }: { children: ReactNode }) {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <LoadingView />;
  if (user) return <Navigate to={user.role === 'admin' ? PATHS.adminDashboard : PATHS.clientDashboard} replace />;
  return <>{children}</>;
}
