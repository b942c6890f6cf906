import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CLIENT_LOGIN_FAILED } from '../../../common/schemas/auth.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { PATHS } from '../../../common/paths.ts';
import { loginClient } from './auth-api.ts';
import { linkClass, submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { InputField } from '../../components/forms/fields.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';
import { CURRENT_USER_KEY } from './use-current-user.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('sign-in');

/** The client login form: username and password (specification, "Client login"). */
export function ClientLoginForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // After 'Set Your Password' the username it showed is filled in.
  const arrivedWith = (useLocation().state as { username?: unknown } | null)?.username;
  const [username, setUsername] = useState(typeof arrivedWith === 'string' ? arrivedWith : '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!username.trim() || !password) {
      setError('Enter your username and password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await loginClient({ username: username.trim(), password });
      toasts.show({ title: 'Login Successful', description: 'Welcome to your client dashboard.' });
      queryClient.setQueryData(CURRENT_USER_KEY, res.user);
      navigate(PATHS.clientDashboard, { replace: true });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    } catch (err) {
      const message = err instanceof ApiRequestError && err.message ? err.message : CLIENT_LOGIN_FAILED;
      setError(message);
      toasts.show({ title: 'Login Failed', description: message, variant: 'destructive' });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy}>
      <InputField label="Username" name="username" autoComplete="username" autoCapitalize="none" spellCheck={false} aria-required value={username} onChange={(e) => setUsername(e.target.value)} />
      <PasswordField label="Password" name="password" autoComplete="current-password" aria-required value={password} onChange={(e) => setPassword(e.target.value)} />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? 'Signing In...' : 'Sign In'}
      </button>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <Link to={PATHS.forgotPassword} className={linkClass}>
          Forgot password?
        </Link>
        <Link to={PATHS.contact} className={linkClass}>
          Contact Support
        </Link>
      </div>
    </form>
  );
}
