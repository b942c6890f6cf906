import { useEffect, useId, useState, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
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

const compactLabelClass = 'mb-1 block text-xs font-medium text-slate-800 dark:text-slate-200';

export interface FieldProps {
  label: string;
  required?: boolean;
  hint?: ReactNode;
  /** The message of the last check of this field; it also marks the input invalid. */
  error?: string;
  invalid?: boolean;
  className?: string;
  /** Classes added to the input itself (the wrapper takes `className`). */
  inputClassName?: string;
  /** A fixed id for the input, for forms that move focus to the first invalid field. */
  id?: string;
  /** A quieter aside after the label, part of the field's name (such as '(suggested, you can change it)'). */
  labelNote?: ReactNode;
  /**
   * A live status under the input (such as a username's availability, with a button inside): always
   * present as a polite live region and named in `aria-describedby`, red while the field is invalid.
   */
  status?: ReactNode;
  /** A field in a repeated row (a timeline's task): a small label, so a row of fields stays compact. */
  compact?: boolean;
  /**
   * Drop `error` once the value differs from the one last submitted, for forms whose messages come
   * only from a submit (issue 21: 'password too common' stayed under a changed password).
   */
  dropStaleError?: boolean;
}

/**
 * The error of the last submit while it still describes the field: once the value differs from the
 * one submitted, the message belonged to an earlier attempt and goes.
 */
function useCurrentError(id: string, error: string | undefined, value: unknown, enabled: boolean): string | undefined {
  const [submitted, setSubmitted] = useState<{ value: string } | null>(null);
  useEffect(() => {
    if (!enabled) return;
    const valueOf = () => (document.getElementById(id) as HTMLInputElement | null)?.value ?? '';
    const form = (document.getElementById(id) as HTMLInputElement | null)?.form;
    if (!form) return;
    // A native listener on the form runs before React's own submit handler sets the new errors.
    const onSubmit = () => setSubmitted({ value: valueOf() });
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [id, enabled]);
  if (!enabled || !error || !submitted || value === undefined) return error;
  return String(value) === submitted.value ? error : undefined;
}

/**
 * The label, hint and error around one input, and the attributes that tie them to it: every field
 * of a hydrated form is wired the same way (decision 235).
 */
export function useField(
  { label, required, hint, error: givenError, invalid, className, id: givenId, labelNote, status, compact, dropStaleError = false }: FieldProps,
  input: (attrs: FieldAttributes) => ReactNode,
  /** The input's value, for `dropStaleError`. */
  value?: unknown,
) {
  const generated = useId();
  const id = givenId ?? generated;
  const error = useCurrentError(id, givenError, value, dropStaleError);
  const hasStatus = status !== undefined;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : '', hasStatus ? `${id}-status` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className={compact ? compactLabelClass : labelClass}>
        {label}
        {required ? <RequiredMark /> : null}
        {labelNote ? <span className="font-normal text-slate-600 dark:text-slate-400"> {labelNote}</span> : null}
      </label>
      {input({ id, 'aria-required': required || undefined, 'aria-invalid': invalid || Boolean(error) || undefined, 'aria-describedby': described })}
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
      {hasStatus ? (
        <p id={`${id}-status`} aria-live="polite" className={`mt-1 text-sm ${invalid || error ? 'text-red-800 dark:text-red-300' : 'text-slate-700 dark:text-slate-300'}`}>
          {status}
        </p>
      ) : null}
    </div>
  );
}

export interface FieldAttributes {
  id: string;
  'aria-required': true | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

const FIELD_PROPS = ['label', 'required', 'hint', 'error', 'invalid', 'className', 'inputClassName', 'id', 'labelNote', 'status', 'compact', 'dropStaleError'] as const;
/** Splits a field's own props from the ones passed on to the input element. */
export function split<T extends FieldProps>(props: T): [FieldProps, Omit<T, (typeof FIELD_PROPS)[number]>] {
  const rest = { ...props } as Record<string, unknown>;
  for (const key of FIELD_PROPS) delete rest[key];
  return [props, rest as Omit<T, (typeof FIELD_PROPS)[number]>];
}

/** A labelled single-line input. */
export function InputField({ inputRef, ...props }: FieldProps & { inputRef?: Ref<HTMLInputElement> } & Omit<InputHTMLAttributes<HTMLInputElement>, 'required' | 'id'>) {
  const [field, input] = split(props);
  return useField(field, (attrs) => <input ref={inputRef} className={clsx(inputClass, field.inputClassName)} {...attrs} {...input} />, input.value);
}

/** A labelled multi-line input. */
export function TextAreaField({ inputRef, ...props }: FieldProps & { inputRef?: Ref<HTMLTextAreaElement> } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'required' | 'id'>) {
  const [field, textarea] = split(props);
  return useField(field, (attrs) => <textarea ref={inputRef} className={clsx(inputClass, 'min-h-24 resize-y', field.inputClassName)} {...attrs} {...textarea} />, textarea.value);
}

/** A labelled choice from a list; `placeholder` is the empty first option. */
export function SelectField({
  options,
  placeholder,
  ...props
}: FieldProps & { options: readonly { value: string; label: string }[]; placeholder?: string } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'required' | 'id'>) {
  const [field, select] = split(props);
  const control = (attrs: FieldAttributes) => (
    <select className={clsx(inputClass, field.inputClassName)} {...attrs} {...select}>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
  return useField(field, control, select.value);
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
