import { Link, useSearchParams } from 'react-router';
import { LayoutDashboard } from 'lucide-react';
import { DashboardHeader } from '../../components/portal/dashboard-header.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { AccountButton } from '../../features/auth/account-dialog.tsx';
import { isLoginResult, LoginAudit } from '../../features/auth/login-audit.tsx';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { useCurrentUser } from '../../features/auth/use-current-user.ts';
import { useLogout } from '../../features/auth/use-logout.ts';
import { PATHS } from '../../../common/paths.ts';

export const meta = () => [{ title: 'Security' }, { name: 'robots', content: 'noindex, nofollow' }];

function SecurityPage() {
  const { data: user } = useCurrentUser();
  const { logout, pending } = useLogout();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.min(100_000, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const resultParam = params.get('result');
  const result = isLoginResult(resultParam) ? resultParam : null;

  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <DashboardHeader title="Security" userName={user?.name} onLogout={() => void logout()} loggingOut={pending}>
        <Link to={PATHS.adminDashboard} className={buttonClass('ghost')}>
          <LayoutDashboard className="size-4" aria-hidden="true" />
          Dashboard
        </Link>
        <AccountButton role="admin" />
      </DashboardHeader>
      <div className="mx-auto max-w-screen-xl px-4 py-6">
        <LoginAudit
          page={page}
          result={result}
          onChange={(next) => {
            const query: Record<string, string> = {};
            if (next.page > 1) query.page = String(next.page);
            if (next.result) query.result = next.result;
            setParams(query);
          }}
        />
      </div>
    </div>
  );
}

export default function SecurityRoute() {
  return (
    <RequireRole role="admin">
      <SecurityPage />
    </RequireRole>
  );
}
