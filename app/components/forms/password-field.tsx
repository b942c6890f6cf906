import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { clsx } from 'clsx';
import { inputClass } from './field-classes.ts';
import { split, useField, type FieldProps } from './fields.tsx';

/** A labelled password input with a button that shows or hides what was typed (decision 235). */
export function PasswordField({
  inputRef,
  ...props
}: FieldProps & { inputRef?: Ref<HTMLInputElement> } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'required' | 'id' | 'type'
  >) {
  const [field, input] = split(props);
  const [visible, setVisible] = useState(false);
  const name = field.label.toLowerCase();
  return useField(
    field,
    (attrs) => (
      <div className="relative">
        <input
          ref={inputRef}
          type={visible ? 'text' : 'password'}
          className={clsx(inputClass, 'pr-12', field.inputClassName)}
          {...attrs}
          {...input}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? `Hide ${name}` : `Show ${name}`}
          aria-pressed={visible}
          className="absolute inset-y-0 right-0 inline-flex w-11 items-center justify-center rounded-r-md text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
        >
          {visible ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
        </button>
      </div>
    ),
    input.value,
  );
}
