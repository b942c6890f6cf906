import { useSearchParams } from 'react-router';
import { auditFilterSchema, type AuditFilter } from '../../../common/schemas/audit.ts';
import { AuditLog } from '../../features/audit/audit-log.tsx';
import { RequireRole } from '../../features/auth/require-role.tsx';
import { AdminFrameHeader, AdminPageGuard } from './admin-frame.tsx';

export const meta = () => [{ title: 'Audit log' }, { name: 'robots', content: 'noindex, nofollow' }];

function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  // A hand-edited address that does not parse shows the whole log instead of an error.
  const parsed = auditFilterSchema.safeParse(Object.fromEntries(params));
  const filter: AuditFilter = parsed.success ? parsed.data : {};
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <AdminFrameHeader title="Audit log" />
      <div className="mx-auto max-w-screen-xl px-4 py-6">
        <AuditLog filter={filter} onChange={(next) => setParams(Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as Record<string, string>)} />
      </div>
    </div>
  );
}

export default function AuditLogRoute() {
  return (
    <RequireRole role="admin">
      <AdminPageGuard title="Audit log" permission="audit.read">
        <AuditLogPage />
      </AdminPageGuard>
    </RequireRole>
  );
}
