import { useEffect, useState, type FormEvent } from 'react';
import { data, Link, useNavigate } from 'react-router';
import { Wrench } from 'lucide-react';
import type { Route } from './+types/admin-setup';
import { newPasswordSchema, type LoginResponse } from '../../../common/schemas/auth.ts';
import { SETUP_CLOSED, SETUP_CONTEXT_KEY, type SetupReader } from '../../../common/schemas/setup.ts';
import { PATHS } from '../../../common/paths.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { AuthCard, linkClass, submitClass } from '../../features/auth/auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { InputField } from '../../components/forms/fields.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';
import { MfaEnrolment } from '../../features/auth/mfa-steps.tsx';
import { PASSWORD_HINT } from '../../features/auth/new-password-form.tsx';
import { createFirstAdmin, inspectSetupLink } from '../../features/auth/setup-api.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { useLinkToken } from '../account/token-link.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('sign-in');

// First-run set-up of the first admin account (docs/decisions/160-first-run-set-up-link.md). Once an
// admin exists the page is gone: the server answers 404 and the link is refused.

export async function loader({ context }: Route.LoaderArgs) {
  const reader = (context as Record<string, unknown> | undefined)?.[SETUP_CONTEXT_KEY] as SetupReader | undefined;
  const open = reader ? await reader.isOpen() : true;
  return open ? { open } : data({ open }, { status: 404 });
}

export const meta = () => [{ title: 'Set Up the Admin Account' }, { name: 'robots', content: 'noindex, nofollow' }];

const NO_TOKEN = 'This address has no set-up link in it. Copy the whole link the server printed when it started (it ends with #token=…).';

export default function AdminSetupPage({ loaderData }: Route.ComponentProps) {
  const token = useLinkToken();
  const navigate = useNavigate();
  const [state, setState] = useState<'checking' | 'form' | 'enrol'>('checking');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [closed, setClosed] = useState(!loaderData.open);

  useEffect(() => {
    if (closed || token === undefined) return;
    if (token === null) return setLinkError(NO_TOKEN);
    inspectSetupLink(token)
      .then(() => setState('form'))
      .catch((err) => {
        const message = err instanceof ApiRequestError ? err.message : 'Could not check this set-up link.';
        if (message === SETUP_CLOSED) setClosed(true);
        else setLinkError(message);
      });
  }, [token, closed]);

  function finished(res: LoginResponse) {
    toasts.show({ title: 'Admin Account Ready', description: `Welcome, ${res.user.name}.` });
    navigate(PATHS.adminDashboard, { replace: true });
  }

  if (closed) {
    return (
      <AuthCard title="Set-up Complete" icon={<Wrench className="size-10" aria-hidden="true" />}>
        <div className="space-y-4 text-center">
          <p className="text-sm text-slate-700 dark:text-slate-300">{SETUP_CLOSED}</p>
          <Link to={PATHS.adminLogin} className={linkClass}>
            Go to the admin login
          </Link>
        </div>
      </AuthCard>
    );
  }

  if (state === 'enrol') {
    return (
      <AuthCard title="Set Up the Admin Account" icon={<Wrench className="size-10" aria-hidden="true" />}>
        <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
          Your account is created. One step is left: admin accounts need an authenticator app.
        </p>
        <MfaEnrolment onDone={finished} onCancel={() => navigate(PATHS.adminLogin, { replace: true })} cancelLabel="Finish later (sign in again)" />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Set Up the Admin Account"
      icon={<Wrench className="size-10" aria-hidden="true" />}
      intro={<p>No admin account exists yet. Create the first one here; this page closes for good once it is done.</p>}
    >
      {linkError ? (
        <div className="space-y-3">
          <FormError message={linkError} />
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Each start of the server prints a new link while no admin exists. From the server's command line,{' '}
            <code className="rounded bg-slate-100 px-1 font-mono dark:bg-slate-800">npm run admin:create</code> creates the account too.
          </p>
        </div>
      ) : state === 'checking' ? (
        <p role="status" className="py-6 text-center text-sm text-slate-700 dark:text-slate-300">
          Checking your set-up link…
        </p>
      ) : (
        <FirstAdminForm
          token={token!}
          onCreated={(res) => (res.mfa === 'enrol' ? setState('enrol') : finished(res))}
          onClosed={() => setClosed(true)}
        />
      )}
    </AuthCard>
  );
}

function FirstAdminForm({ token, onCreated, onClosed }: { token: string; onCreated: (res: LoginResponse) => void; onClosed: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ name?: string; email?: string; password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(password);
    const next = {
      name: name.trim() ? undefined : 'Enter your name.',
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim()) ? undefined : 'Enter a valid e-mail address.',
      password: parsed.success ? undefined : parsed.error.issues[0].message,
      confirm: parsed.success && confirm !== password ? 'The two passwords are not the same.' : undefined,
    };
    setErrors(next);
    if (Object.values(next).some(Boolean)) return;
    setBusy(true);
    setError(null);
    try {
      onCreated(await createFirstAdmin({ token, name: name.trim(), email: email.trim(), password }));
    } catch (err) {
      const message = err instanceof ApiRequestError ? err.message : 'Could not create the admin account. Please try again.';
      if (message === SETUP_CLOSED) return onClosed();
      setError(message);
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy}>
      <InputField label="Your name" name="name" autoComplete="name" aria-required dropStaleError error={errors.name} value={name} onChange={(e) => setName(e.target.value)} />
      <InputField label="Email" name="email" type="email" autoComplete="username" aria-required dropStaleError error={errors.email} value={email} onChange={(e) => setEmail(e.target.value)} />
      <PasswordField label="Password" name="new-password" autoComplete="new-password" hint={PASSWORD_HINT} dropStaleError error={errors.password} value={password} onChange={(e) => setPassword(e.target.value)} />
      <PasswordField label="Confirm password" name="confirm-password" autoComplete="new-password" dropStaleError error={errors.confirm} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? 'Creating...' : 'Create Admin Account'}
      </button>
    </form>
  );
}
