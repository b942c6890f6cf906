import { UserRound } from 'lucide-react';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { ClientLoginForm } from '../../features/auth/client-login-form.tsx';
import { RequireSignedOut } from '../../features/auth/require-role.tsx';

export const meta = () => [{ title: 'Client Login' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function ClientLoginPage() {
  return (
    <RequireSignedOut>
      <AuthCard title="Client Login" intro="Sign in to follow your projects, reports and messages." icon={<UserRound className="size-10" aria-hidden="true" />}>
        <ClientLoginForm />
      </AuthCard>
    </RequireSignedOut>
  );
}
