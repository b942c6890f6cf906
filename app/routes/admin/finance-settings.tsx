import { RequireRole } from '../../features/auth/require-role.tsx';
import { FinanceSettingsPanel } from '../../features/finance-admin/finance-settings-form.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Invoice settings' }, { name: 'robots', content: 'noindex, nofollow' }];

function FinanceSettingsPage() {
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <AdminFrameHeader title="Invoice settings" />
      <div className="mx-auto max-w-screen-md px-4 py-6">
        <FinanceSettingsPanel />
      </div>
    </div>
  );
}

export default function FinanceSettingsRoute() {
  return (
    <RequireRole role="admin">
      <AdminPageGuard title="Invoice settings" permission="settings.manage">
        <FinanceSettingsPage />
      </AdminPageGuard>
    </RequireRole>
  );
}
