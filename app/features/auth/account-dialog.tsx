import { useEffect, useRef, useState, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, ShieldCheck, ShieldOff, Smartphone, UserCog } from 'lucide-react';
import type { MfaEnrolmentResponse } from '../../../common/schemas/auth.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';
import { fetchMfaStatus, renewRecoveryCodes, startMfaEnrolment, startMfaReplacement, turnOffMfa } from './auth-api.ts';
import { submitClass } from './auth-card.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { PasswordField } from '../../components/forms/password-field.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { ConfirmOwnerForm } from './confirm-owner-form.tsx';
import { MfaEnrolment, RecoveryCodes } from './mfa-steps.tsx';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('account-security');

const MFA_STATUS_KEY = ['auth', 'mfa'] as const;
const sectionClass = 'space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700';

/**
 * The 'Account' button of the dashboard headers and its dialog: change the password, and for staff
 * the second factor (on by choice where it is not required).
 */
export function AccountButton({ role, children }: { role: 'admin' | 'client'; /** More sections, from the dashboard (e.g. the client's e-mail settings). */ children?: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={buttonClass('ghost')} onClick={() => setOpen(true)} aria-haspopup="dialog">
        <UserCog className="size-4" aria-hidden="true" />
        Account
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title="Account" description="Your password and how you sign in.">
        <div className="space-y-4">
          <section aria-labelledby="account-password-heading" className={sectionClass}>
            <h3 id="account-password-heading" className="text-base font-semibold">
              Change password
            </h3>
            <p className="text-sm text-slate-700 dark:text-slate-300">When you change it, you stay signed in here and every other device is signed out.</p>
            <ChangePasswordForm onDone={() => setOpen(false)} />
          </section>
          {role === 'admin' ? <SecondFactorSection /> : null}
          {children}
        </div>
      </ModalDialog>
    </>
  );
}

/**
 * The words of the steps that ask for the password and a code again; what each sends and where it
 * leads stands beside its form.
 */
const OWNER_CHECKS: Record<'renew-codes' | 'replace' | 'turn-off', Pick<ComponentProps<typeof ConfirmOwnerForm>, 'title' | 'intro' | 'codes' | 'danger' | 'submitLabel' | 'busyLabel'>> = {
  'renew-codes': {
    title: 'New recovery codes',
    intro: <p>Enter your password and the current code from your authenticator app. You get 10 new recovery codes; the old ones stop working.</p>,
    codes: 'authenticator',
    submitLabel: 'Get New Codes',
    busyLabel: 'Checking...',
  },
  replace: {
    title: 'Set up a new authenticator',
    intro: (
      <>
        <p>For a new or replaced phone. Your current app keeps working until the new one is confirmed.</p>
        <p>Enter your password and a code from your current app. Lost your phone? Use one of your recovery codes instead.</p>
      </>
    ),
    codes: 'any',
    submitLabel: 'Continue',
    busyLabel: 'Checking...',
  },
  'turn-off': {
    title: 'Turn off two-step verification',
    intro: <p>Signing in will ask only for your password. Enter your password and a code from your authenticator app, or a recovery code.</p>,
    codes: 'any',
    danger: true,
    submitLabel: 'Turn Off',
    busyLabel: 'Turning off...',
  },
};

type Step =
  | { name: 'status' }
  | { name: 'password' }
  | { name: 'enrol'; setup: MfaEnrolmentResponse }
  | { name: 'renew-codes' }
  | { name: 'new-codes'; codes: string[] }
  | { name: 'replace' }
  | { name: 'replace-scan'; setup: MfaEnrolmentResponse }
  | { name: 'turn-off' };

/**
 * Two-step verification of the signed-in admin: its state; turning it on with the password again;
 * once on, new recovery codes, a new phone, or turning it off (where not required), each with the
 * password and a code again (docs/decisions/081-managing-the-second-factor.md).
 */
function SecondFactorSection() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: MFA_STATUS_KEY, queryFn: fetchMfaStatus, retry: retryUnlessClientError });
  const [step, setStep] = useState<Step>({ name: 'status' });
  const statusHeading = useRef<HTMLHeadingElement>(null);
  const returning = useRef(false);

  useEffect(() => {
    // Back from a step that is gone: focus goes to the section heading, not to the page's end.
    if (step.name === 'status' && returning.current) statusHeading.current?.focus();
  }, [step]);

  function backToStatus() {
    returning.current = true;
    setStep({ name: 'status' });
  }

  const refreshStatus = () => void queryClient.invalidateQueries({ queryKey: MFA_STATUS_KEY });
  const refreshThen = (next: Step) => {
    refreshStatus();
    setStep(next);
  };

  return (
    <section aria-labelledby="account-mfa-heading" className={sectionClass}>
      <h3 id="account-mfa-heading" ref={statusHeading} tabIndex={-1} className="text-base font-semibold">
        Two-step verification
      </h3>
      {step.name === 'enrol' ? (
        <MfaEnrolment
          setup={step.setup}
          headingLevel={4}
          cancelLabel="Cancel"
          onCancel={backToStatus}
          onDone={() => {
            void queryClient.invalidateQueries({ queryKey: MFA_STATUS_KEY });
            toasts.show({ title: 'Two-step verification is on', description: 'From now on, signing in also asks for a code from your authenticator app. Your other devices have been signed out.' });
            backToStatus();
          }}
        />
      ) : step.name === 'password' ? (
        <ConfirmPasswordForm onCancel={backToStatus} onStarted={(setup) => setStep({ name: 'enrol', setup })} />
      ) : step.name === 'renew-codes' ? (
        <ConfirmOwnerForm {...OWNER_CHECKS[step.name]} send={renewRecoveryCodes} onDone={(res) => refreshThen({ name: 'new-codes', codes: res.recoveryCodes })} onCancel={backToStatus} />
      ) : step.name === 'new-codes' ? (
        <RecoveryCodes
          codes={step.codes}
          headingLevel={4}
          onContinue={() => {
            toasts.show({ title: 'New recovery codes', description: 'Your old recovery codes no longer work.' });
            backToStatus();
          }}
        />
      ) : step.name === 'replace' ? (
        // A recovery code may have been spent: the status is fetched again.
        <ConfirmOwnerForm {...OWNER_CHECKS[step.name]} send={startMfaReplacement} onDone={(setup) => refreshThen({ name: 'replace-scan', setup })} onCancel={backToStatus} />
      ) : step.name === 'replace-scan' ? (
        <MfaEnrolment
          setup={step.setup}
          headingLevel={4}
          title="Scan the new QR code"
          submitLabel="Confirm"
          cancelLabel="Cancel"
          onCancel={backToStatus}
          onDone={() => {
            refreshStatus();
            toasts.show({
              title: 'New authenticator set up',
              description: 'Codes now come from the new app; the old one no longer works. Your other devices have been signed out.',
            });
            backToStatus();
          }}
        />
      ) : step.name === 'turn-off' ? (
        <ConfirmOwnerForm
          {...OWNER_CHECKS[step.name]}
          send={turnOffMfa}
          onDone={(res) => {
            refreshStatus();
            toasts.show({ title: 'Two-step verification is off', description: res.message });
            backToStatus();
          }}
          onCancel={backToStatus}
        />
      ) : status.isPending ? (
        <InlineLoading label="Checking two-step verification..." />
      ) : status.isError ? (
        <ErrorState title="Could not check two-step verification" error={status.error} onRetry={() => status.refetch()} />
      ) : status.data.enabled ? (
        <>
          <p className="flex items-start gap-2 text-sm text-slate-800 dark:text-slate-200">
            <ShieldCheck className="mt-0.5 size-5 shrink-0 text-emerald-700 dark:text-emerald-300" aria-hidden="true" />
            <span>
              <strong>On.</strong> Signing in asks for a code from your authenticator app.{' '}
              {status.data.recoveryCodesLeft === 1 ? '1 recovery code left.' : `${status.data.recoveryCodesLeft} recovery codes left.`}
            </span>
          </p>
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <button type="button" className={buttonClass('secondary')} onClick={() => setStep({ name: 'renew-codes' })}>
              <KeyRound className="size-4" aria-hidden="true" />
              New recovery codes
            </button>
            <button type="button" className={buttonClass('secondary')} onClick={() => setStep({ name: 'replace' })}>
              <Smartphone className="size-4" aria-hidden="true" />
              Set up a new authenticator
            </button>
            {/* Where staff must have it (ADMIN_MFA_REQUIRED), the server refuses this: it is not offered. */}
            {status.data.required ? null : (
              <button type="button" className={buttonClass('danger')} onClick={() => setStep({ name: 'turn-off' })}>
                <ShieldOff className="size-4" aria-hidden="true" />
                Turn off two-step verification
              </button>
            )}
          </div>
        </>
      ) : (
        <>
          <p className="flex items-start gap-2 text-sm text-slate-800 dark:text-slate-200">
            <ShieldOff className="mt-0.5 size-5 shrink-0 text-slate-600 dark:text-slate-300" aria-hidden="true" />
            <span>
              <strong>Off.</strong> Turn it on and signing in will also ask for a 6-digit code from an app on your phone, so a stolen password alone is not enough.
            </span>
          </p>
          <button type="button" className={buttonClass('primary')} onClick={() => setStep({ name: 'password' })}>
            Turn on two-step verification
          </button>
        </>
      )}
    </section>
  );
}

/** The password again before the QR code: a borrowed session alone cannot tie the account to another phone. */
function ConfirmPasswordForm({ onCancel, onStarted }: { onCancel: () => void; onStarted: (setup: MfaEnrolmentResponse) => void }) {
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const field = useRef<HTMLDivElement>(null);
  useEffect(() => field.current?.querySelector('input')?.focus(), []);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!password) return setFieldError('Enter your password.');
    setFieldError(undefined);
    setBusy(true);
    setError(null);
    try {
      onStarted(await startMfaEnrolment(password));
    } catch (err) {
      setError(err instanceof ApiRequestError ? err.message : 'Could not start the set-up.');
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-busy={busy} aria-label="Confirm your password">
      <p className="text-sm text-slate-700 dark:text-slate-300">Enter your password to continue.</p>
      <div ref={field}>
        <PasswordField label="Password" name="password" autoComplete="current-password" dropStaleError error={fieldError} value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      <FormError message={error} />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={`${submitClass()} sm:w-auto`} disabled={busy}>
          {busy ? 'Checking...' : 'Continue'}
        </button>
        <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
