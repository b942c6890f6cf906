import { ShieldCheck } from 'lucide-react';
import { AdminLoginForm } from '../../features/auth/admin-login-form.tsx';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { RequireSignedOut } from '../../features/auth/require-role.tsx';
import { AdminAccessNote, FirstRunHint, useSetupStatus } from '../../features/auth/first-run-hint.tsx';

export const meta = () => [{ title: 'Admin Login' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function AdminLoginPage() {
  const status = useSetupStatus();
  return (
    <RequireSignedOut>
      <AuthCard
        title="Secure Admin Access"
        icon={<ShieldCheck className="size-10" aria-hidden="true" />}
        intro={<AdminAccessNote status={status} />}
      >
        <FirstRunHint status={status} />
        <AdminLoginForm />
      </AuthCard>
    </RequireSignedOut>
  );
}
