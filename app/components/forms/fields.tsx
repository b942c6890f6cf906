import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { clsx } from 'clsx';
import { inputClass, labelClass } from './field-classes.ts';

/** The mark after a required field's label; the input itself says aria-required. */
export function RequiredMark() {
  return (
    <span aria-hidden="true" className="ml-0.5 text-red-700 dark:text-red-300">
      *
    </span>
  );
}

interface FieldProps {
  label: string;
  required?: boolean;
  hint?: ReactNode;
  invalid?: boolean;
  className?: string;
}

function Hint({ id, children }: { id: string; children?: ReactNode }) {
  return children ? (
    <p id={id} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
      {children}
    </p>
  ) : null;
}

/** A labelled single-line input of the public forms. */
export function InputField({
  label,
  required,
  hint,
  invalid,
  className,
  inputRef,
  ...input
}: FieldProps & { inputRef?: Ref<HTMLInputElement> } & Omit<InputHTMLAttributes<HTMLInputElement>, 'required'>) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <input
        id={id}
        ref={inputRef}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={inputClass}
        {...input}
      />
      <Hint id={`${id}-hint`}>{hint}</Hint>
    </div>
  );
}

/** A labelled multi-line input of the public forms. */
export function TextAreaField({
  label,
  required,
  hint,
  invalid,
  className,
  inputRef,
  ...textarea
}: FieldProps & { inputRef?: Ref<HTMLTextAreaElement> } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'required'>) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {required ? <RequiredMark /> : null}
      </label>
      <textarea
        id={id}
        ref={inputRef}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={clsx(inputClass, 'min-h-24 resize-y')}
        {...textarea}
      />
      <Hint id={`${id}-hint`}>{hint}</Hint>
    </div>
  );
}

/** The primary submit button of the public forms, with its busy label while sending. */
export function SubmitButton({ busy, busyLabel, ready = true, children }: { busy: boolean; busyLabel: string; ready?: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      disabled={busy || !ready}
      aria-disabled={busy || undefined}
      className="inline-flex min-h-11 w-full items-center justify-center gap-2 rounded-md bg-brand-700 px-6 py-2 font-semibold text-white hover:bg-brand-800 disabled:cursor-wait disabled:opacity-70 sm:w-auto dark:bg-sky-300 dark:text-slate-950 dark:hover:bg-sky-200"
    >
      {busy ? <span className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden="true" /> : null}
      {busy ? busyLabel : children}
    </button>
  );
}
