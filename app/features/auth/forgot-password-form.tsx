import { useState, type FormEvent } from 'react';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { requestPasswordReset } from './auth-api.ts';
import { submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { InputField } from '../../components/forms/fields.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('forgot-password');

/** 'Forgot password?': asks for the username or e-mail and always shows the same answer. */
export function ForgotPasswordForm({ forAdmin }: { forAdmin: boolean }) {
  const [identifier, setIdentifier] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!identifier.trim()) return setError(forAdmin ? 'Enter your email address.' : 'Enter your username or email address.');
    setBusy(true);
    setError(null);
    try {
      const res = await requestPasswordReset(identifier.trim());
      setAnswer(res.message);
    } catch (err) {
      const message = err instanceof ApiRequestError ? err.message : 'Could not send the reset link. Please try again.';
      setError(message);
      toasts.show({ title: 'Request Failed', description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  if (answer) {
    return (
      <div role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100">
        {answer}
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy}>
      <InputField
        label={forAdmin ? 'Email' : 'Username or email'}
        name="identifier"
        type={forAdmin ? 'email' : 'text'}
        autoComplete={forAdmin ? 'email' : 'username'}
        autoCapitalize="none"
        spellCheck={false}
        aria-required
        value={identifier}
        onChange={(e) => setIdentifier(e.target.value)}
      />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? 'Sending...' : 'Send Reset Link'}
      </button>
    </form>
  );
}
