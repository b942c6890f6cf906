import { useRef, useState } from 'react';
import { X } from 'lucide-react';
import { REPORT_IMAGE_MAX_BYTES, REPORT_IMAGE_TYPES, REPORT_IMAGES_MAX } from '../../../common/schemas/reports.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import type { FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, TextAreaField } from '../../components/forms/fields.tsx';
import { FilePicker } from '../../components/forms/file-picker.tsx';

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
function checkImages(list: FileList | null, room: number): { accepted: File[]; problems: string[] } {
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

/** A square button of the image lists (44 px, the smallest touch target). */
export const iconButton =
  'inline-flex size-11 shrink-0 items-center justify-center rounded text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800';

/** The new images a form has chosen so far, and the messages about the ones it refused. */
export function useChosenImages() {
  const [files, setFiles] = useState<File[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const inputRef = useRef<HTMLInputElement>(null);
  return {
    files,
    problems,
    inputRef,
    /** Takes what fits in `room` places; the input is emptied so the same file can be chosen again. */
    add(list: FileList | null, room: number) {
      const { accepted, problems: refused } = checkImages(list, room);
      setFiles((current) => [...current, ...accepted]);
      setProblems(refused);
      if (inputRef.current) inputRef.current.value = '';
    },
    remove: (index: number) => setFiles((list) => list.filter((_, i) => i !== index)),
    reset() {
      setFiles([]);
      setProblems([]);
    },
  };
}

/** The image picker of a report form: its label, the refused files' messages and the chosen files, each removable. */
export function ReportImagePicker({
  id,
  label,
  buttonText,
  listLabel,
  removeLabel,
  images,
  room,
}: {
  id: string;
  label: string;
  buttonText: string;
  listLabel: string;
  removeLabel: string;
  images: ReturnType<typeof useChosenImages>;
  /** How many more images the report can take. */
  room: number;
}) {
  return (
    <div>
      <label htmlFor={`${id}-images`} id={`${id}-images-label`} className={labelClass}>
        {label}
      </label>
      <FilePicker
        id={`${id}-images`}
        labelledBy={`${id}-images-label`}
        inputRef={images.inputRef}
        buttonText={buttonText}
        count={images.files.length}
        multiple
        accept={REPORT_IMAGE_TYPES.join(',')}
        onChange={(e) => images.add(e.target.files, room)}
      />
      {images.problems.length > 0 ? (
        <ul role="alert" className="mt-2 list-disc pl-5 text-sm text-red-700 dark:text-red-300">
          {images.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {images.files.length > 0 ? (
        <ul className="mt-2 grid gap-1 text-sm" aria-label={listLabel}>
          {images.files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="flex items-center justify-between gap-2 rounded border border-slate-200 px-2 dark:border-slate-700">
              <span className="truncate">{file.name}</span>
              <button type="button" className={iconButton} aria-label={`${removeLabel} ${file.name}`} onClick={() => images.remove(index)}>
                <X className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
