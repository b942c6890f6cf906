import { StaffList } from '../../features/staff/staff-list.tsx';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Staff' }, { name: 'robots', content: 'noindex, nofollow' }];

// Owners only (staff.manage): another role that opens the address sees the no-access state (decision 273).
export default function StaffRoute() {
  return (
    <RequireRole role="admin">
      <AdminPageGuard title="Staff" permission="staff.manage">
        <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
          <AdminFrameHeader title="Staff" />
          <div className="mx-auto max-w-screen-xl px-4 py-6">
            <StaffList />
          </div>
        </div>
      </AdminPageGuard>
    </RequireRole>
  );
}
