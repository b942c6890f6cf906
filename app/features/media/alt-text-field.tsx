import { useId } from 'react';
import { clsx } from 'clsx';
import { MEDIA_ALT_MAX } from '../../../common/schemas/media.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';

/** The required alt text of an image (a PDF's title), with its help and, when refused, the reason. */
export function AltTextField({
  value,
  onChange,
  error,
  help,
  label = 'Alt text',
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  help?: string;
  label?: string;
}) {
  const ids = { field: useId(), help: useId(), error: useId() };
  return (
    <div>
      <label htmlFor={ids.field} className={labelClass}>
        {label} (required)
      </label>
      <textarea
        id={ids.field}
        value={value}
        rows={3}
        maxLength={MEDIA_ALT_MAX}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={clsx(help && ids.help, error && ids.error) || undefined}
        onChange={(e) => onChange(e.target.value)}
        className={inputClass}
      />
      {help ? (
        <p id={ids.help} className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          {help}
        </p>
      ) : null}
      {error ? (
        <p id={ids.error} className="mt-1 text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
