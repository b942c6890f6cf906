import { labelClass } from './field-classes.ts';

/**
 * A choice of one from a few, shown as large radio buttons under a legend (decision 235): the
 * fieldset and legend name the group for screen readers, each label makes a 44 px target.
 */
export function RadioGroupField<V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  className,
}: {
  legend: string;
  name: string;
  options: readonly { value: V; label: string }[];
  value: V | '';
  onChange: (value: V) => void;
  className?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className={labelClass}>{legend}</legend>
      <div className="flex flex-wrap gap-3">
        {options.map((o) => (
          <label
            key={o.value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-400 px-4 has-checked:border-brand-700 has-checked:bg-brand-50 dark:border-slate-500 dark:has-checked:border-sky-300 dark:has-checked:bg-slate-800"
          >
            <input type="radio" name={name} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} className="size-4 accent-brand-700" />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
