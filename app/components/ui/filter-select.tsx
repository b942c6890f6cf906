import { useId } from 'react';
import { inputClass, labelClass } from '../forms/field-classes.ts';

/**
 * A staff list's filter: a labelled select whose first option (empty value) shows everything.
 * The list owns the value; an empty string means "no filter".
 */
export function FilterSelect<T extends string>({
  label,
  allLabel,
  value,
  values,
  optionLabel,
  onChange,
  className,
}: {
  label: string;
  allLabel: string;
  value: T | null | undefined;
  values: readonly T[];
  optionLabel: (value: T) => string;
  onChange: (value: string) => void;
  className?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value)} className={inputClass}>
        <option value="">{allLabel}</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {optionLabel(v)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The status filter of a paged list (useListParams): choosing a status starts again at page 1. */
export function StatusFilter<T extends string>({
  value,
  values,
  labels,
  go,
}: {
  value: T | null | undefined;
  values: readonly T[];
  labels: Record<T, string>;
  go: (next: { value?: string; page?: number }) => void;
}) {
  return <FilterSelect label="Status" allLabel="All statuses" value={value} values={values} optionLabel={(s) => labels[s]} onChange={(v) => go({ value: v, page: 1 })} />;
}
