import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { KeyRound } from 'lucide-react';
import type { InvitationInfo } from '../../../common/schemas/auth.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { acceptInvitation, inspectInvitation } from '../../features/auth/auth-api.ts';
import { AuthCard, linkClass } from '../../features/auth/auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { NewPasswordForm } from '../../features/auth/new-password-form.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { PATHS } from '../../../common/paths.ts';
import { useLinkToken } from './token-link.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('sign-in');

export const meta = () => [{ title: 'Set Your Password' }, { name: 'robots', content: 'noindex, nofollow' }];

const NO_TOKEN = 'This link is incomplete. Open the link from your invitation e-mail again, or ask us for a new invitation.';

/** The page of a client's invitation link: shows the username and sets the first password. */
export default function SetPasswordPage() {
  const token = useLinkToken();
  const navigate = useNavigate();
  const [info, setInfo] = useState<InvitationInfo | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (token === undefined) return;
    if (token === null) return setError(NO_TOKEN);
    inspectInvitation(token)
      .then(setInfo)
      .catch((err) => setError(err instanceof ApiRequestError ? err.message : 'Could not check this invitation link.'));
  }, [token]);

  async function save(password: string) {
    const res = await acceptInvitation({ token: token!, password });
    toasts.show({ title: 'Password Set', description: `You can now sign in${res.username ? ` as ${res.username}` : ''} with your new password.` });
    // The login form starts with the username this page showed (client-login-form reads it).
    navigate(res.role === 'admin' ? PATHS.adminLogin : PATHS.clientLogin, { replace: true, state: { username: res.username } });
  }

  return (
    <AuthCard title="Set Your Password" icon={<KeyRound className="size-10" aria-hidden="true" />}>
      {error ? (
        <div className="space-y-4">
          <FormError message={error} />
          <p className="text-center text-sm">
            <Link to={PATHS.contact} className={linkClass}>
              Contact Support
            </Link>
          </p>
        </div>
      ) : !info ? (
        <p role="status" className="py-6 text-center text-sm text-slate-700 dark:text-slate-300">
          Checking your invitation…
        </p>
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Welcome, {info.name}. Choose the password for your client portal account.
          </p>
          {info.username ? (
            <p className="rounded-md bg-slate-100 p-3 text-sm dark:bg-slate-800">
              Your username: <strong className="font-mono">{info.username}</strong>
            </p>
          ) : null}
          <NewPasswordForm submitLabel="Set Password" busyLabel="Saving..." save={save} />
        </div>
      )}
    </AuthCard>
  );
}
