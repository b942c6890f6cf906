import { can } from '../../../common/permissions.ts';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { FinanceOverview } from '../../features/finance-admin/finance-overview.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Finance' }, { name: 'robots', content: 'noindex, nofollow' }];

function FinancePage() {
  const { data: user } = useCurrentUser();
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <AdminFrameHeader title="Finance" />
      <div className="mx-auto max-w-screen-xl px-4 py-6">
        <FinanceOverview settingsLink={can(user, 'settings.manage')} />
      </div>
    </div>
  );
}

export default function FinanceRoute() {
  return (
    <RequireRole role="admin">
      <AdminPageGuard title="Finance" permission="finance.read">
        <FinancePage />
      </AdminPageGuard>
    </RequireRole>
  );
}
