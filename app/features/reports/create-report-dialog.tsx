import { useId, useRef, useState, type FormEvent } from 'react';
import { FilePlus2, X } from 'lucide-react';
import { FilePicker } from '../../components/forms/file-picker.tsx';
import { company } from '../../../common/content/company.ts';
import {
  createReportFieldsSchema,
  REPORT_IMAGE_MAX_BYTES,
  REPORT_IMAGE_TYPES,
  REPORT_IMAGES_MAX,
} from '../../../common/schemas/reports.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { todayIso } from '../../../common/dates.ts';
import { useCreateReport } from './reports-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('create-report');

export type TextKey = 'date' | 'projectCode' | 'project' | 'team' | 'tasks' | 'progress' | 'challenges' | 'actionTaken' | 'helpNeeded' | 'nextSteps' | 'feedback' | 'conclusion';

export const LONG_FIELDS: { key: TextKey; label: string; required?: boolean }[] = [
  { key: 'tasks', label: 'Tasks *', required: true },
  { key: 'progress', label: 'Progress *', required: true },
  { key: 'challenges', label: 'Challenges' },
  { key: 'actionTaken', label: 'Action taken' },
  { key: 'helpNeeded', label: 'Help needed' },
  { key: 'nextSteps', label: 'Next steps' },
  { key: 'feedback', label: 'Feedback' },
  { key: 'conclusion', label: 'Conclusion' },
];

export const IMAGE_MAX_MB = REPORT_IMAGE_MAX_BYTES / (1024 * 1024);

function initialFields(project: { name: string; code: string } | null): Record<TextKey, string> {
  return {
    date: todayIso(),
    projectCode: project?.code ?? '',
    project: project?.name ?? '',
    team: company.name,
    tasks: '',
    progress: '',
    challenges: '',
    actionTaken: '',
    helpNeeded: '',
    nextSteps: '',
    feedback: '',
    conclusion: '',
  };
}

/** 'Create Project Report for {project}': the report fields of the specification plus images. */
export function CreateReportDialog({ project }: { project: { _id: string; name: string; code: string } | null }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(() => initialFields(project));
  const [images, setImages] = useState<File[]>([]);
  const [imageProblems, setImageProblems] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<TextKey, string>>>({});
  const fileInput = useRef<HTMLInputElement>(null);
  const createReport = useCreateReport();

  function openDialog() {
    setFields(initialFields(project));
    setImages([]);
    setImageProblems([]);
    setFieldErrors({});
    setOpen(true);
  }

  function addImages(list: FileList | null) {
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const file of Array.from(list ?? [])) {
      if (!(REPORT_IMAGE_TYPES as readonly string[]).includes(file.type)) problems.push(`${file.name} is not a JPEG, PNG or WebP image`);
      else if (file.size > REPORT_IMAGE_MAX_BYTES) problems.push(`${file.name} is larger than ${IMAGE_MAX_MB} MB`);
      else accepted.push(file);
    }
    const room = REPORT_IMAGES_MAX - images.length;
    if (accepted.length > room) problems.push(`A report can carry at most ${REPORT_IMAGES_MAX} images`);
    setImages((current) => [...current, ...accepted.slice(0, Math.max(room, 0))]);
    setImageProblems(problems);
    if (fileInput.current) fileInput.current.value = '';
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!project) {
      toasts.show({ title: 'Please select a project first', variant: 'destructive' });
      return;
    }
    const parsed = createReportFieldsSchema.safeParse({ ...fields, projectId: project._id });
    if (!parsed.success) {
      const errors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
      setFieldErrors(errors);
      toasts.show({ title: 'Please fill in required fields', description: parsed.error.issues[0]?.message, variant: 'destructive' });
      return;
    }
    setFieldErrors({});
    try {
      await createReport.mutateAsync({ fields: { ...fields, projectId: project._id }, images });
      toasts.show({ title: 'Report created successfully' });
      setOpen(false);
    } catch (err) {
      toastFailure('Failed to create report', err);
    }
  }

  // A field's message goes as soon as the field is filled in (a 'required' message must not linger over a valid field).
  const set = (key: TextKey) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setFields((f) => ({ ...f, [key]: value }));
    if (value.trim()) setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };
  const errorOf = (key: TextKey) =>
    fieldErrors[key] ? (
      <p id={`${id}-${key}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
        {fieldErrors[key]}
      </p>
    ) : null;
  const invalid = (key: TextKey) => (fieldErrors[key] ? { 'aria-invalid': true, 'aria-describedby': `${id}-${key}-error` } : {});

  return (
    <>
      <button type="button" className={buttonClass('primary')} onClick={openDialog}>
        <FilePlus2 className="size-4" aria-hidden="true" />
        Create Project Report
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Create Project Report for ${project?.name ?? ''}`} size="lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
          <p className="text-sm text-slate-600 dark:text-slate-300">Fields marked * are required.</p>
          <div className="grid gap-3 sm:grid-cols-2">
            <div>
              <label htmlFor={`${id}-date`} className={labelClass}>
                Date *
              </label>
              <input id={`${id}-date`} type="date" className={inputClass} value={fields.date} onChange={set('date')} {...invalid('date')} />
              {errorOf('date')}
            </div>
            <div>
              <label htmlFor={`${id}-projectCode`} className={labelClass}>
                Project code
              </label>
              <input id={`${id}-projectCode`} className={inputClass} value={fields.projectCode} onChange={set('projectCode')} />
            </div>
            <div>
              <label htmlFor={`${id}-project`} className={labelClass}>
                Project *
              </label>
              <input id={`${id}-project`} className={inputClass} value={fields.project} onChange={set('project')} {...invalid('project')} />
              {errorOf('project')}
            </div>
            <div>
              <label htmlFor={`${id}-team`} className={labelClass}>
                Team
              </label>
              <input id={`${id}-team`} className={inputClass} value={fields.team} onChange={set('team')} />
            </div>
          </div>
          {LONG_FIELDS.map(({ key, label }) => (
            <div key={key}>
              <label htmlFor={`${id}-${key}`} className={labelClass}>
                {label}
              </label>
              <textarea id={`${id}-${key}`} rows={key === 'tasks' || key === 'progress' ? 3 : 2} className={inputClass} value={fields[key]} onChange={set(key)} {...invalid(key)} />
              {errorOf(key)}
            </div>
          ))}
          <div>
            <label htmlFor={`${id}-images`} id={`${id}-images-label`} className={labelClass}>
              Images (JPEG, PNG or WebP; up to {REPORT_IMAGES_MAX}, {IMAGE_MAX_MB} MB each)
            </label>
            <FilePicker
              id={`${id}-images`}
              labelledBy={`${id}-images-label`}
              inputRef={fileInput}
              buttonText={images.length ? 'Add images' : 'Choose images'}
              count={images.length}
              multiple
              accept={REPORT_IMAGE_TYPES.join(',')}
              onChange={(e) => addImages(e.target.files)}
            />
            {imageProblems.length > 0 ? (
              <ul role="alert" className="mt-2 list-disc pl-5 text-sm text-red-700 dark:text-red-300">
                {imageProblems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            ) : null}
            {images.length > 0 ? (
              <ul className="mt-2 grid gap-1 text-sm" aria-label="Chosen images">
                {images.map((file, index) => (
                  <li key={`${file.name}-${index}`} className="flex items-center justify-between gap-2 rounded border border-slate-200 px-2 dark:border-slate-700">
                    <span className="truncate">{file.name}</span>
                    <button
                      type="button"
                      className="inline-flex size-11 items-center justify-center rounded text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
                      aria-label={`Remove ${file.name}`}
                      onClick={() => setImages((list) => list.filter((_, i) => i !== index))}
                    >
                      <X className="size-4" aria-hidden="true" />
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={createReport.isPending}>
              {createReport.isPending ? 'Saving Report...' : 'Save Report'}
            </button>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}
