import { useId, useState, type FormEvent } from 'react';
import { FilePlus2 } from 'lucide-react';
import { useSection } from '../../lib/site-content.ts';
import { createReportFieldsSchema, REPORT_IMAGES_MAX } from '../../../common/schemas/reports.ts';
import { buttonClass } from '../../components/button-class.ts';
import { schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { todayIso } from '../../../common/dates.ts';
import { IMAGE_MAX_MB, ReportImagePicker, ReportTextFields, TEXT_KEYS, useChosenImages, type TextKey } from './report-form-fields.tsx';
import { useCreateReport } from './reports-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('create-report');

// Every text field starts empty but today's date, the project and the company as the team.
function initialFields(project: { name: string; code: string } | null, companyName: string): Record<TextKey, string> {
  const empty = Object.fromEntries(TEXT_KEYS.map((key) => [key, ''])) as Record<TextKey, string>;
  return { ...empty, date: todayIso(), projectCode: project?.code ?? '', project: project?.name ?? '', team: companyName };
}

/** 'Create Project Report for {project}': the report fields of the specification plus images. */
export function CreateReportDialog({ project }: { project: { _id: string; name: string; code: string } | null }) {
  const companyName = useSection('company').name;
  const id = useId();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(() => initialFields(project, companyName));
  const images = useChosenImages();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<TextKey>>({});
  const createReport = useCreateReport();

  function openDialog() {
    setFields(initialFields(project, companyName));
    images.reset();
    setFieldErrors({});
    setOpen(true);
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
      await createReport.mutateAsync({ fields: { ...fields, projectId: project._id }, images: images.files });
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
          <ReportImagePicker
            id={id}
            label={`Images (JPEG, PNG or WebP; up to ${REPORT_IMAGES_MAX}, ${IMAGE_MAX_MB} MB each)`}
            buttonText={images.files.length ? 'Add images' : 'Choose images'}
            listLabel="Chosen images"
            removeLabel="Remove"
            images={images}
            room={REPORT_IMAGES_MAX - images.files.length}
          />
          <DialogFormActions onCancel={() => setOpen(false)} busy={createReport.isPending} submitLabel="Save Report" busyLabel="Saving Report..." />
        </form>
      </ModalDialog>
    </>
  );
}
