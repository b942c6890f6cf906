import { REPORT_IMAGE_MAX_BYTES, REPORT_IMAGE_TYPES, REPORT_IMAGES_MAX } from '../../../common/schemas/reports.ts';
import type { FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, TextAreaField } from '../../components/forms/fields.tsx';

/** The text fields of a report, as the shared schema (common/schemas/reports.ts) names them. */
export type TextKey = 'date' | 'projectCode' | 'project' | 'team' | 'tasks' | 'progress' | 'challenges' | 'actionTaken' | 'helpNeeded' | 'nextSteps' | 'feedback' | 'conclusion';

const SHORT_FIELDS: { key: TextKey; label: string; type?: string }[] = [
  { key: 'date', label: 'Date *', type: 'date' },
  { key: 'projectCode', label: 'Project code' },
  { key: 'project', label: 'Project *' },
  { key: 'team', label: 'Team' },
];

const LONG_FIELDS: { key: TextKey; label: string }[] = [
  { key: 'tasks', label: 'Tasks *' },
  { key: 'progress', label: 'Progress *' },
  { key: 'challenges', label: 'Challenges' },
  { key: 'actionTaken', label: 'Action taken' },
  { key: 'helpNeeded', label: 'Help needed' },
  { key: 'nextSteps', label: 'Next steps' },
  { key: 'feedback', label: 'Feedback' },
  { key: 'conclusion', label: 'Conclusion' },
];

/** Every text field, in the order the form shows them. */
export const TEXT_KEYS: readonly TextKey[] = [...SHORT_FIELDS, ...LONG_FIELDS].map((f) => f.key);

export const IMAGE_MAX_MB = REPORT_IMAGE_MAX_BYTES / (1024 * 1024);

/**
 * The chosen files a report can take with `room` places left: the accepted ones, and a message for
 * each refused one (the server checks the same rules on the bytes).
 */
export function checkImages(list: FileList | null, room: number): { accepted: File[]; problems: string[] } {
  const problems: string[] = [];
  const accepted: File[] = [];
  for (const file of Array.from(list ?? [])) {
    if (!(REPORT_IMAGE_TYPES as readonly string[]).includes(file.type)) problems.push(`${file.name} is not a JPEG, PNG or WebP image`);
    else if (file.size > REPORT_IMAGE_MAX_BYTES) problems.push(`${file.name} is larger than ${IMAGE_MAX_MB} MB`);
    else accepted.push(file);
  }
  if (accepted.length > room) problems.push(`A report can carry at most ${REPORT_IMAGES_MAX} images`);
  return { accepted: accepted.slice(0, Math.max(room, 0)), problems };
}

/** The report's text fields from the shared field components (decision 235), for creating and correcting alike. */
export function ReportTextFields({
  values,
  errors,
  onChange,
}: {
  values: Record<TextKey, string>;
  errors: FieldErrors<TextKey>;
  onChange: (key: TextKey, value: string) => void;
}) {
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-2">
        {SHORT_FIELDS.map(({ key, label, type }) => (
          <InputField key={key} label={label} type={type} value={values[key]} onChange={(e) => onChange(key, e.target.value)} error={errors[key]} />
        ))}
      </div>
      {LONG_FIELDS.map(({ key, label }) => (
        <TextAreaField
          key={key}
          label={label}
          rows={key === 'tasks' || key === 'progress' ? 3 : 2}
          value={values[key]}
          onChange={(e) => onChange(key, e.target.value)}
          error={errors[key]}
        />
      ))}
    </>
  );
}
