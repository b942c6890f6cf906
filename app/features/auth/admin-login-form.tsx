import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_LOGIN_FAILED, type LoginResponse, type MfaStep } from '../../../common/schemas/auth.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { PATHS } from '../../../common/paths.ts';
import { loginAdmin, logoutOnServer } from './auth-api.ts';
import { linkClass, submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { InputField } from '../../components/forms/fields.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';
import { MfaEnrolment, MfaVerifyForm } from './mfa-steps.tsx';
import { CURRENT_USER_KEY } from './use-current-user.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('sign-in');

/** The admin login: e-mail and password, then the second factor when the account has or needs one. */
export function AdminLoginForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<MfaStep | null>(null);

  function signedIn(res: LoginResponse) {
    toasts.show({ title: 'Login Successful', description: 'Welcome to your admin dashboard.' });
    queryClient.setQueryData(CURRENT_USER_KEY, res.user);
    navigate(PATHS.adminDashboard, { replace: true });
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  }

  function startAgain() {
    // The half-signed-in session is worth nothing; end it rather than leave it to expire.
    void logoutOnServer().catch(() => undefined);
    setStep(null);
    setPassword('');
    setBusy(false);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!email.trim() || !password) {
      setError('Enter your email and password.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await loginAdmin({ email: email.trim(), password });
      if (res.mfa) {
        setStep(res.mfa);
        setBusy(false);
        return;
      }
      signedIn(res);
    } catch (err) {
      const message = err instanceof ApiRequestError && err.message ? err.message : ADMIN_LOGIN_FAILED;
      setError(message);
      toasts.show({ title: 'Login Failed', description: message, variant: 'destructive' });
      setBusy(false);
    }
  }

  if (step === 'verify') return <MfaVerifyForm onDone={signedIn} onCancel={startAgain} />;
  if (step === 'enrol') return <MfaEnrolment onDone={signedIn} onCancel={startAgain} />;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy}>
      <InputField label="Email" name="email" type="email" autoComplete="username" aria-required value={email} onChange={(e) => setEmail(e.target.value)} />
      <PasswordField label="Password" name="password" autoComplete="current-password" aria-required value={password} onChange={(e) => setPassword(e.target.value)} />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? 'Authenticating...' : 'Sign In'}
      </button>
      <p className="text-sm">
        <Link to={`${PATHS.forgotPassword}?for=admin`} className={linkClass}>
          Forgot password?
        </Link>
      </p>
    </form>
  );
}
