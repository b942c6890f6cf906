import type { ReactNode } from 'react';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { AdminFrameHeader } from './admin-frame.tsx';

// Not a route: the frame of the staff pages that review what visitors sent, and of blog management (admin only).
export function ReviewShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <RequireRole role="admin">
      <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
        <AdminFrameHeader title={title} />
        <div className="mx-auto max-w-screen-xl px-4 py-6">{children}</div>
      </div>
    </RequireRole>
  );
}
