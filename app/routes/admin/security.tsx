import { useSearchParams } from 'react-router';
import { isLoginResult, LoginAudit } from '../../features/auth/login-audit.tsx';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Security' }, { name: 'robots', content: 'noindex, nofollow' }];

function SecurityPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.min(100_000, Number.parseInt(params.get('page') ?? '1', 10) || 1));
  const resultParam = params.get('result');
  const result = isLoginResult(resultParam) ? resultParam : null;

  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <AdminFrameHeader title="Security" />
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
      <AdminPageGuard title="Security" permission="audit.read">
        <SecurityPage />
      </AdminPageGuard>
    </RequireRole>
  );
}
