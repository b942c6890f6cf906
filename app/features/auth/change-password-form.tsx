import { useState, type FormEvent } from 'react';
import { newPasswordSchema } from '../../../common/schemas/auth.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { changePassword } from './auth-api.ts';
import { submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';
import { PASSWORD_HINT } from './new-password-form.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('change-password');

/**
 * The change-password form for a signed-in user (client or admin); dashboards mount it where they
 * like, e.g. in a dialog. Other devices are signed out by the server when it succeeds.
 */
export function ChangePasswordForm({ onDone }: { onDone?: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ current?: string; next?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    const parsed = newPasswordSchema.safeParse(next);
    const errors = {
      current: current ? undefined : 'Enter your current password.',
      next: parsed.success ? undefined : parsed.error.issues[0].message,
      confirm: parsed.success && confirm !== next ? 'The two passwords are not the same.' : undefined,
    };
    setFieldError(errors);
    if (errors.current || errors.next || errors.confirm) return;
    setBusy(true);
    setError(null);
    try {
      const res = await changePassword({ currentPassword: current, newPassword: next });
      toasts.show({ title: 'Password Changed', description: res.message });
      setCurrent('');
      setNext('');
      setConfirm('');
      onDone?.();
    } catch (err) {
      const message = err instanceof ApiRequestError ? err.message : 'Could not change the password.';
      setError(message);
      toasts.show({ title: 'Password Not Changed', description: message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy} aria-label="Change password">
      <PasswordField label="Current password" name="current-password" autoComplete="current-password" dropStaleError error={fieldError.current} value={current} onChange={(e) => setCurrent(e.target.value)} />
      <PasswordField label="New password" name="new-password" autoComplete="new-password" hint={PASSWORD_HINT} dropStaleError error={fieldError.next} value={next} onChange={(e) => setNext(e.target.value)} />
      <PasswordField label="Confirm new password" name="confirm-password" autoComplete="new-password" dropStaleError error={fieldError.confirm} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? 'Saving...' : 'Change Password'}
      </button>
    </form>
  );
}
