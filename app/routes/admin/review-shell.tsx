import type { ReactNode } from 'react';
import { RequireRole } from '../../features/auth/require-role.tsx';
import type { Permission } from '../../../common/permissions.ts';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

// Not a route: the frame of the staff pages that review what visitors sent, and of blog management (each names the permission it needs, decision 273).
export function ReviewShell({ title, permission, children }: { title: string; permission: Permission; children: ReactNode }) {
  return (
    <RequireRole role="admin">
      <AdminPageGuard title={title} permission={permission}>
        <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
          <AdminFrameHeader title={title} />
          <div className="mx-auto max-w-screen-xl px-4 py-6">{children}</div>
        </div>
      </AdminPageGuard>
    </RequireRole>
  );
}
