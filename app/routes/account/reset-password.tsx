import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { KeyRound } from 'lucide-react';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { inspectResetLink, resetPassword } from '../../features/auth/auth-api.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { AuthCard, linkClass } from '../../features/auth/auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { NewPasswordForm } from '../../features/auth/new-password-form.tsx';
import { PATHS } from '../../../common/paths.ts';
import { useLinkToken } from './token-link.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('sign-in');

export const meta = () => [{ title: 'Reset Password' }, { name: 'robots', content: 'noindex, nofollow' }];

/** The page of a password reset link: a new password, then back to the right login screen. */
export default function ResetPasswordPage() {
  const token = useLinkToken();
  const navigate = useNavigate();
  // A used or expired link says so when the page opens, not only after a new password was typed.
  const [linkState, setLinkState] = useState<{ checked: boolean; error: string | null }>({ checked: false, error: null });
  useEffect(() => {
    if (!token) return;
    inspectResetLink(token)
      .then(() => setLinkState({ checked: true, error: null }))
      .catch((err) => setLinkState({ checked: true, error: err instanceof ApiRequestError && err.status === 404 ? err.message : null }));
  }, [token]);

  async function save(password: string) {
    const res = await resetPassword({ token: token!, password });
    toasts.show({ title: 'Password Reset', description: 'Your password has been changed. Sign in with the new one; other devices have been signed out.' });
    navigate(res.role === 'admin' ? PATHS.adminLogin : PATHS.clientLogin, { replace: true });
  }

  return (
    <AuthCard title="Reset Password" icon={<KeyRound className="size-10" aria-hidden="true" />} intro="Choose a new password for your account.">
      {token === undefined ? (
        <p role="status" className="py-6 text-center text-sm text-slate-700 dark:text-slate-300">
          Loading…
        </p>
      ) : token === null ? (
        <LinkProblem message="This link is incomplete. Open the link from the e-mail again, or ask for a new one." />
      ) : !linkState.checked ? (
        <p role="status" className="py-6 text-center text-sm text-slate-700 dark:text-slate-300">
          Checking your link…
        </p>
      ) : linkState.error ? (
        <LinkProblem message={linkState.error} />
      ) : (
        <>
          <NewPasswordForm submitLabel="Reset Password" busyLabel="Saving..." save={save} />
          <p className="mt-6 text-center text-sm">
            <NewLinkLink />
          </p>
        </>
      )}
    </AuthCard>
  );
}

const NewLinkLink = () => (
  <Link to={PATHS.forgotPassword} className={linkClass}>
    Ask for a new link
  </Link>
);

/** A link that cannot be used: why, and the way to a new one. */
function LinkProblem({ message }: { message: string }) {
  return (
    <div className="space-y-4">
      <FormError message={message} />
      <p className="text-center text-sm">
        <NewLinkLink />
      </p>
    </div>
  );
}
