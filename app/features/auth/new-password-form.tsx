import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH, newPasswordSchema } from '../../../common/schemas/auth.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';

export const PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words make a strong, memorable password; common passwords are refused.`;

/** Choosing a password twice (invitation and reset pages); `save` calls the server. */
export function NewPasswordForm({ submitLabel, busyLabel, save }: { submitLabel: string; busyLabel: string; save: (password: string) => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = newPasswordSchema.safeParse(password);
    const errors = {
      password: parsed.success ? undefined : parsed.error.issues[0].message,
      confirm: parsed.success && confirm !== password ? 'The two passwords are not the same.' : undefined,
    };
    setFieldError(errors);
    if (errors.password || errors.confirm) return;
    setBusy(true);
    setError(null);
    try {
      await save(password);
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : 'Could not save the password. Please try again.');
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy}>
      <PasswordField label="New password" name="new-password" autoComplete="new-password" hint={PASSWORD_HINT} dropStaleError error={fieldError.password} value={password} onChange={(e) => setPassword(e.target.value)} />
      <PasswordField label="Confirm new password" name="confirm-password" autoComplete="new-password" dropStaleError error={fieldError.confirm} value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}
