import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { clsx } from 'clsx';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';

/** The card that holds a sign-in or password form, centred on the page. */
export function AuthCard({ title, intro, children, icon }: { title: string; intro?: ReactNode; children: ReactNode; icon?: ReactNode }) {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-start justify-center bg-slate-50 px-4 py-10 sm:items-center dark:bg-slate-950">
      <div className="w-full max-w-md rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8 dark:border-slate-800 dark:bg-slate-900">
        {icon ? <div className="mb-4 flex justify-center text-brand-700 dark:text-sky-300">{icon}</div> : null}
        <h1 className="text-center text-2xl font-bold">{title}</h1>
        {intro ? <div className="mt-2 text-center text-sm text-slate-700 dark:text-slate-300">{intro}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}

/**
 * The error of the last submit while it still describes the field: once the value differs from the
 * one submitted, the message belonged to an earlier attempt and goes (issue 21: 'password too common'
 * stayed under a changed password).
 */
function useCurrentError(id: string, error: string | undefined, value: InputHTMLAttributes<HTMLInputElement>['value']): string | undefined {
  const [submitted, setSubmitted] = useState<{ value: string } | null>(null);
  useEffect(() => {
    const field = document.getElementById(id);
    const form = field instanceof HTMLInputElement ? field.form : null;
    if (!form) return;
    // A native listener on the form runs before React's own submit handler sets the new errors.
    const onSubmit = () => setSubmitted({ value: (document.getElementById(id) as HTMLInputElement | null)?.value ?? '' });
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [id]);
  if (!error || !submitted || value === undefined) return error;
  return String(value) === submitted.value ? error : undefined;
}

/** A labelled text input; `hint` and `error` are tied to it for screen readers. */
export function TextField({
  label,
  hint,
  error: givenError,
  ...input
}: { label: string; hint?: string; error?: string; ref?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const error = useCurrentError(id, givenError, input.value);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <input id={id} className={inputClass} aria-invalid={error ? true : undefined} aria-describedby={described} {...input} />
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The hint and the error under a field, with the ids its aria-describedby names. */
function FieldNotes({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** A password input with a button that shows or hides what was typed. */
export function PasswordField({
  label,
  hint,
  error: givenError,
  ...input
}: { label: string; hint?: string; error?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const id = useId();
  const error = useCurrentError(id, givenError, input.value);
  const [visible, setVisible] = useState(false);
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={clsx(inputClass, 'pr-12')}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 inline-flex w-11 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
        >
          {visible ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
        </button>
      </div>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/**
 * A failure shown inside the form (the toast disappears; this stays until the next try, or until a
 * field of the form changes: then it no longer describes what the form holds).
 */
export function FormError({ message: givenMessage }: { message: string | null }) {
  const id = useId();
  const current = useRef(givenMessage);
  current.current = givenMessage;
  // The message the visitor has since edited away; a new message (or a new submit) shows again.
  const [editedAway, setEditedAway] = useState<string | null>(null);
  useEffect(() => {
    const form = document.getElementById(id)?.closest('form');
    if (!form) return;
    const onInput = () => setEditedAway(current.current);
    const onSubmit = () => setEditedAway(null);
    form.addEventListener('input', onInput);
    form.addEventListener('submit', onSubmit);
    return () => {
      form.removeEventListener('input', onInput);
      form.removeEventListener('submit', onSubmit);
    };
  }, [id]);
  const message = givenMessage !== null && givenMessage === editedAway ? null : givenMessage;
  return (
    <div id={id} role="alert" aria-live="assertive" className={message ? 'rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200' : 'sr-only'}>
      {message}
    </div>
  );
}

export function submitClass(): string {
  return 'inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-70 dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200';
}

export const linkClass = 'font-medium text-brand-700 underline underline-offset-4 hover:text-brand-800 dark:text-sky-300 dark:hover:text-sky-200';
