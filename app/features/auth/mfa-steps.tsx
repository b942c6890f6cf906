import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { LoginResponse, MfaEnrolmentResponse } from '../../../common/schemas/auth.ts';
import { ApiRequestError } from '../../lib/api.ts';
import { confirmMfaEnrolment, startMfaEnrolment, verifySecondFactor } from './auth-api.ts';
import { linkClass, submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { InputField } from '../../components/forms/fields.tsx';

const messageOf = (err: unknown, fallback: string) => (err instanceof ApiRequestError && err.message ? err.message : fallback);

/** Second sign-in step: the 6-digit code of the authenticator app, or one recovery code. */
export function MfaVerifyForm({ onDone, onCancel }: { onDone: (res: LoginResponse) => void; onCancel: () => void }) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [recovery]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return setError(recovery ? 'Enter one of your recovery codes.' : 'Enter the 6-digit code.');
    setBusy(true);
    setError(null);
    try {
      onDone(await verifySecondFactor(code.trim()));
    } catch (err) {
      setError(messageOf(err, 'That code could not be checked.'));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy}>
      <h2 className="text-lg font-semibold">Two-step verification</h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {recovery ? 'Enter one of the recovery codes you saved when you set up the authenticator app. Each code works once.' : 'Enter the 6-digit code shown by your authenticator app.'}
      </p>
      <InputField
        inputRef={input}
        label={recovery ? 'Recovery code' : 'Authentication code'}
        name="code"
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        pattern={recovery ? undefined : '[0-9]*'}
        maxLength={recovery ? 20 : 6}
        autoCapitalize="none"
        spellCheck={false}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy}>
        {busy ? 'Verifying...' : 'Verify'}
      </button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" className={linkClass} onClick={() => (setRecovery((r) => !r), setCode(''), setError(null))}>
          {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
        </button>
        <button type="button" className={linkClass} onClick={onCancel}>
          Start again
        </button>
      </div>
    </form>
  );
}

/**
 * Enrolment of an authenticator app: scan the QR code (or type the key), confirm a code, keep the
 * recovery codes. Used at the first sign-in of an admin who must have one (it starts the set-up
 * itself) and from the Account section (which passes the set-up it started with the password).
 */
export function MfaEnrolment({
  onDone,
  onCancel,
  setup: givenSetup,
  cancelLabel = 'Start again',
  headingLevel = 2,
  title = 'Set up two-step verification',
  submitLabel = 'Turn On',
}: {
  onDone: (res: LoginResponse) => void;
  onCancel: () => void;
  setup?: MfaEnrolmentResponse;
  cancelLabel?: string;
  /** The heading and the confirm button (a new phone reads differently from a first set-up). */
  title?: string;
  submitLabel?: string;
  /** Deeper inside a section that has its own heading (4 in the Account dialog). */
  headingLevel?: 2 | 3 | 4;
}) {
  const Heading = `h${headingLevel}` as const;
  const [setup, setSetup] = useState<MfaEnrolmentResponse | null>(givenSetup ?? null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [finished, setFinished] = useState<{ res: LoginResponse; codes: string[] } | null>(null);
  const started = useRef(!!givenSetup);
  const heading = useRef<HTMLHeadingElement>(null);
  // The step before (the password, or the login form) is gone: focus starts again at this heading.
  useEffect(() => heading.current?.focus(), []);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startMfaEnrolment()
      .then(setSetup)
      .catch((err) => setLoadError(messageOf(err, 'Could not start the set-up.')));
  }, []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setError('Enter the 6-digit code shown by the app.');
    setBusy(true);
    setError(null);
    try {
      const res = await confirmMfaEnrolment(code.trim());
      setFinished({ res, codes: res.recoveryCodes });
    } catch (err) {
      setError(messageOf(err, 'That code could not be checked.'));
      setBusy(false);
    }
  }

  if (finished) return <RecoveryCodes codes={finished.codes} onContinue={() => onDone(finished.res)} headingLevel={headingLevel} />;
  if (loadError) {
    return (
      <div className="space-y-4">
        <FormError message={loadError} />
        <button type="button" className={submitClass()} onClick={onCancel}>
          {cancelLabel}
        </button>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy || !setup}>
      <Heading ref={heading} tabIndex={-1} className={headingLevel === 2 ? 'text-lg font-semibold' : 'text-base font-semibold'}>
        {title}
      </Heading>
      <ol className="list-decimal space-y-1 pl-5 text-sm text-slate-700 dark:text-slate-300">
        <li>Open an authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator or 1Password).</li>
        <li>Scan this QR code, or type the key below into the app.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      {setup ? (
        <>
          <img src={setup.qrCode} alt="QR code to add this account to an authenticator app" width={200} height={200} className="mx-auto size-48 rounded bg-white p-2" />
          <p className="text-center text-xs text-slate-600 dark:text-slate-400">
            Key: <code className="font-mono text-sm break-all text-slate-900 select-all dark:text-slate-100">{setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
          </p>
        </>
      ) : (
        <p role="status" className="text-center text-sm">
          Preparing your QR code…
        </p>
      )}
      <InputField
        label="Authentication code"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="[0-9]*"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <FormError message={error} />
      <button type="submit" className={submitClass()} disabled={busy || !setup}>
        {busy ? 'Verifying...' : submitLabel}
      </button>
      <button type="button" className={`${linkClass} text-sm`} onClick={onCancel}>
        {cancelLabel}
      </button>
    </form>
  );
}

/** The recovery codes, shown once: the admin keeps them somewhere safe. */
export function RecoveryCodes({ codes, onContinue, headingLevel = 2 }: { codes: string[]; onContinue: () => void; headingLevel?: 2 | 3 | 4 }) {
  const Heading = `h${headingLevel}` as const;
  const heading = useRef<HTMLHeadingElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="space-y-4">
      <Heading ref={heading} tabIndex={-1} className={headingLevel === 2 ? 'text-lg font-semibold' : 'text-base font-semibold'}>
        Save your recovery codes
      </Heading>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        If you lose your phone, each of these codes lets you sign in once. Keep them somewhere safe (a password manager or printed paper).
        They will not be shown again.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm dark:border-slate-700 dark:bg-slate-950">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <button
        type="button"
        className="inline-flex min-h-11 w-full items-center justify-center rounded-md border border-slate-300 px-4 text-sm font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {copied ? 'Copied' : 'Copy codes'}
      </button>
      <button type="button" className={submitClass()} onClick={onContinue}>
        I have saved my codes, continue
      </button>
    </div>
  );
}
