import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { MfaManageBody } from '../../../common/schemas/auth.ts';
import { buttonClass } from '../../components/button-class.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { InputField } from '../../components/forms/fields.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';

/**
 * One step of managing an active second factor: the password and a code again, so a session left
 * open on a shared computer cannot change how the account is protected. `codes` says whether a
 * recovery code may stand in for the authenticator app (a lost phone).
 */
export function ConfirmOwnerForm<T>({
  title,
  intro,
  codes,
  submitLabel,
  busyLabel,
  danger = false,
  send,
  onDone,
  onCancel,
}: {
  title: string;
  intro: ReactNode;
  codes: 'authenticator' | 'any';
  submitLabel: string;
  busyLabel: string;
  danger?: boolean;
  send: (body: MfaManageBody) => Promise<T>;
  onDone: (result: T) => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ password?: string; code?: string }>({});
  const [wrongField, setWrongField] = useState<'password' | 'code' | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const passwordBox = useRef<HTMLDivElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  // The step before is gone: focus starts again at this step's heading.
  useEffect(() => heading.current?.focus(), []);

  const focusField = (field: 'password' | 'code') =>
    field === 'password' ? passwordBox.current?.querySelector('input')?.focus() : codeInput.current?.focus();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      password: password ? undefined : 'Enter your password.',
      code: code.trim()
        ? codes === 'authenticator' && !/^\d{6}$/.test(code.trim())
          ? 'Enter the 6-digit code shown by the app.'
          : undefined
        : codes === 'authenticator'
          ? 'Enter the 6-digit code shown by the app.'
          : 'Enter a code from the app, or a recovery code.',
    };
    setFieldErrors(missing);
    if (missing.password || missing.code) return focusField(missing.password ? 'password' : 'code');
    setBusy(true);
    setError(null);
    setWrongField(null);
    try {
      onDone(await send({ password, code: code.trim() }));
    } catch (err) {
      const message = err instanceof ApiRequestError && err.message ? err.message : 'That could not be checked. Please try again.';
      setError(message);
      // The server says which answer was wrong (details[0].field): mark that field and go back to it.
      const field = err instanceof ApiRequestError && Array.isArray(err.details) ? String(err.details[0]?.field ?? '') : '';
      const wrong = field === 'body.password' ? 'password' : field === 'body.code' ? 'code' : null;
      setWrongField(wrong);
      if (wrong === 'code') setCode('');
      setBusy(false);
      if (wrong) setTimeout(() => focusField(wrong), 0);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy} aria-labelledby="account-mfa-step-heading">
      <h4 id="account-mfa-step-heading" ref={heading} tabIndex={-1} className="text-base font-semibold">
        {title}
      </h4>
      <div className="space-y-2 text-sm text-slate-700 dark:text-slate-300">{intro}</div>
      <div ref={passwordBox}>
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          dropStaleError
          error={fieldErrors.password}
          aria-invalid={fieldErrors.password || wrongField === 'password' ? true : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <InputField
        inputRef={codeInput}
        label={codes === 'authenticator' ? 'Authentication code' : 'Authentication or recovery code'}
        hint={codes === 'authenticator' ? undefined : 'The 6 digits the app shows, or one of your recovery codes (such as abcde-23456).'}
        name="code"
        autoComplete="one-time-code"
        inputMode={codes === 'authenticator' ? 'numeric' : 'text'}
        pattern={codes === 'authenticator' ? '[0-9]*' : undefined}
        maxLength={codes === 'authenticator' ? 6 : 20}
        autoCapitalize="none"
        spellCheck={false}
        dropStaleError
        error={fieldErrors.code}
        aria-invalid={fieldErrors.code || wrongField === 'code' ? true : undefined}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <FormError message={error} />
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          className={
            danger
              ? 'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-70 sm:w-auto dark:bg-red-300 dark:text-slate-950 dark:hover:bg-red-200'
              : `${submitClass()} sm:w-auto`
          }
          disabled={busy}
        >
          {busy ? busyLabel : submitLabel}
        </button>
        <button type="button" className={`${buttonClass('secondary')} w-full sm:w-auto`} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
