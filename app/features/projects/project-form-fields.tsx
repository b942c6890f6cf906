import type { InputHTMLAttributes } from 'react';
import type { FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, TextAreaField } from '../../components/forms/fields.tsx';

/** The text fields of a project, as the shared schema (common/schemas/projects.ts) names them. */
export type ProjectTextKey = 'name' | 'code' | 'description' | 'startDate' | 'endDate' | 'budget';
/** The required fields and their messages (the specification's). */
export const REQUIRED_PROJECT_FIELDS: Partial<Record<ProjectTextKey, string>> = { name: 'Name is required', code: 'Code is required' };

type OnChange = (key: ProjectTextKey) => (e: { target: { value: string } }) => void;

/** A project's fields from the shared field components (decision 235), for creating and editing alike. */
export function ProjectTextFields({ values, errors, onChange }: { values: Record<ProjectTextKey, string>; errors: FieldErrors<string>; onChange: OnChange }) {
  const field = (key: ProjectTextKey, label: string, props: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <InputField label={label} value={values[key]} onChange={onChange(key)} error={errors[key]} {...props} />
  );
  return (
    <>
      <p className="text-sm text-slate-600 dark:text-slate-300">Fields marked * are required.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {field('name', 'Project name *', { autoComplete: 'off' })}
        {field('code', 'Project code *', { autoComplete: 'off', autoCapitalize: 'characters' })}
      </div>
      <TextAreaField label="Description" rows={3} value={values.description} onChange={onChange('description')} error={errors.description} />
      <div className="grid gap-3 sm:grid-cols-3">
        {field('startDate', 'Start date', { type: 'date' })}
        {field('endDate', 'End date', { type: 'date' })}
        {field('budget', 'Budget (NGN)', { inputMode: 'decimal', placeholder: '0' })}
      </div>
    </>
  );
}
