import { useId, useRef, useState, type FormEvent } from 'react';
import { FilePlus2, X } from 'lucide-react';
import { FilePicker } from '../../components/forms/file-picker.tsx';
import { company } from '../../../common/content/company.ts';
import { createReportFieldsSchema, REPORT_IMAGE_TYPES, REPORT_IMAGES_MAX } from '../../../common/schemas/reports.ts';
import { buttonClass } from '../../components/button-class.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { todayIso } from '../../../common/dates.ts';
import { checkImages, IMAGE_MAX_MB, ReportTextFields, type TextKey } from './report-form-fields.tsx';
import { useCreateReport } from './reports-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('create-report');

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
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<TextKey>>({});
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
    const { accepted, problems } = checkImages(list, REPORT_IMAGES_MAX - images.length);
    setImages((current) => [...current, ...accepted]);
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
    const errors = schemaErrors<TextKey>(createReportFieldsSchema, { ...fields, projectId: project._id });
    const first = Object.values(errors)[0];
    if (first) {
      setFieldErrors(errors);
      toasts.show({ title: 'Please fill in required fields', description: first, variant: 'destructive' });
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
  const set = (key: TextKey, value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    if (value.trim()) setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };

  return (
    <>
      <button type="button" className={buttonClass('primary')} onClick={openDialog}>
        <FilePlus2 className="size-4" aria-hidden="true" />
        Create Project Report
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Create Project Report for ${project?.name ?? ''}`} size="lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
          <p className="text-sm text-slate-600 dark:text-slate-300">Fields marked * are required.</p>
          <ReportTextFields values={fields} errors={fieldErrors} onChange={set} />
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
