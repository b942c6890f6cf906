import { KeyRound } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { AuthCard, linkClass } from '../../features/auth/auth-card.tsx';
import { ForgotPasswordForm } from '../../features/auth/forgot-password-form.tsx';
import { PATHS } from '../../../common/paths.ts';

export const meta = () => [{ title: 'Forgot Password' }, { name: 'robots', content: 'noindex, nofollow' }];

export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const forAdmin = params.get('for') === 'admin';
  return (
    <AuthCard
      title="Forgot Password"
      icon={<KeyRound className="size-10" aria-hidden="true" />}
      intro={forAdmin ? 'Enter the email address of your admin account.' : 'Enter your username or the email address we have for you.'}
    >
      <ForgotPasswordForm forAdmin={forAdmin} />
      <p className="mt-6 text-center text-sm">
        <Link to={forAdmin ? PATHS.adminLogin : PATHS.clientLogin} className={linkClass}>
          Back to login
        </Link>
      </p>
    </AuthCard>
  );
}
