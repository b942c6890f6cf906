import { useId, useState, type FormEvent } from 'react';
import { Pencil, Undo2, X } from 'lucide-react';
import { REPORT_IMAGES_MAX, updateReportFieldsSchema, type Report } from '../../../common/schemas/reports.ts';
import { buttonClass } from '../../components/button-class.ts';
import { labelClass } from '../../components/forms/field-classes.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { formatDay } from '../../../common/dates.ts';
import { detailErrors, schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { iconButton, IMAGE_MAX_MB, ReportImagePicker, ReportTextFields, TEXT_KEYS, useChosenImages, type TextKey } from './report-form-fields.tsx';
import { useCorrectReport } from './reports-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('edit-report');

const fieldsOf = (report: Report) => Object.fromEntries(TEXT_KEYS.map((key) => [key, report[key]])) as Record<TextKey, string>;

/**
 * 'Edit report': every text field of creation with its rules and messages, images removed and
 * added, and 'Tell the client' (one e-mail about the correction; otherwise none). Only what
 * changed is sent; the text it replaces stays in the report's history.
 */
export function EditReportDialog({ report }: { report: Report }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState(() => fieldsOf(report));
  const [removed, setRemoved] = useState<string[]>([]);
  const added = useChosenImages();
  const [notifyClient, setNotifyClient] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<TextKey>>({});
  const correct = useCorrectReport();
  const title = `Edit report of ${formatDay(report.date)}`;

  function openDialog() {
    setFields(fieldsOf(report));
    setRemoved([]);
    added.reset();
    setNotifyClient(false);
    setFieldErrors({});
    setOpen(true);
  }

  const set = (key: TextKey, value: string) => {
    setFields((f) => ({ ...f, [key]: value }));
    setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear();
    const initial = fieldsOf(report);
    const changed = Object.fromEntries(Object.entries(fields).filter(([key, value]) => value !== initial[key as TextKey]));
    if (Object.keys(changed).length === 0 && removed.length === 0 && added.files.length === 0) {
      setOpen(false);
      return;
    }
    const errors = schemaErrors<TextKey>(updateReportFieldsSchema, changed);
    const first = Object.values(errors)[0];
    if (first) {
      setFieldErrors(errors);
      toasts.show({ title: 'Please fill in required fields', description: first, variant: 'destructive' });
      return;
    }
    try {
      const res = await correct.mutateAsync({ id: report._id, fields: changed, images: added.files, removeImages: removed, notifyClient });
      toasts.show({ title: 'Report updated successfully', description: res.clientMailed ? 'The client was e-mailed about the correction.' : undefined });
      setOpen(false);
    } catch (err) {
      setFieldErrors(detailErrors<TextKey>(err));
      toastFailure('Failed to update report', err);
    }
  }

  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={openDialog} aria-label={`Edit the report of ${formatDay(report.date)}`}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={title} size="lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label={title}>
          <p className="text-sm text-slate-600 dark:text-slate-300">Fields marked * are required. The text you replace stays in the report's history.</p>
          <ReportTextFields values={fields} errors={fieldErrors} onChange={set} />
          {report.images.length > 0 ? (
            <fieldset>
              <legend className={labelClass}>Images of the report</legend>
              <ul className="grid gap-1 text-sm">
                {report.images.map((image) => {
                  const gone = removed.includes(image._id);
                  return (
                    <li key={image._id} className="flex items-center gap-2 rounded border border-slate-200 px-2 dark:border-slate-700">
                      <img src={image.thumbnailUrl} alt="" width={40} height={40} className={`size-10 rounded object-cover ${gone ? 'opacity-40' : ''}`} />
                      <span className={`min-w-0 flex-1 truncate ${gone ? 'line-through' : ''}`}>
                        {image.name}
                        {gone ? <span className="ml-1 no-underline"> (will be removed)</span> : null}
                      </span>
                      <button
                        type="button"
                        className={iconButton}
                        aria-label={gone ? `Keep ${image.name}` : `Remove ${image.name}`}
                        onClick={() => setRemoved((list) => (gone ? list.filter((x) => x !== image._id) : [...list, image._id]))}
                      >
                        {gone ? <Undo2 className="size-4" aria-hidden="true" /> : <X className="size-4" aria-hidden="true" />}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          ) : null}
          <ReportImagePicker
            id={id}
            label={`Add images (JPEG, PNG or WebP; up to ${REPORT_IMAGES_MAX} in all, ${IMAGE_MAX_MB} MB each)`}
            buttonText={added.files.length ? 'Add more images' : 'Choose images'}
            listLabel="Images to add"
            removeLabel="Do not add"
            images={added}
            room={REPORT_IMAGES_MAX - (report.images.length - removed.length) - added.files.length}
          />
          <div className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
            <input id={`${id}-notify`} type="checkbox" className="mt-0.5 size-5 shrink-0 accent-brand-700" checked={notifyClient} onChange={(e) => setNotifyClient(e.target.checked)} aria-describedby={`${id}-notify-help`} />
            <div>
              <label htmlFor={`${id}-notify`} className="font-medium">
                Tell the client
              </label>
              <p id={`${id}-notify-help`} className="text-sm text-slate-700 dark:text-slate-300">
                Sends one e-mail saying the report was corrected. Left unticked, nobody is e-mailed; the client sees 'Corrected on' beside the report.
              </p>
            </div>
          </div>
          <DialogFormActions onCancel={() => setOpen(false)} busy={correct.isPending} submitLabel="Save changes" busyLabel="Saving..." />
        </form>
      </ModalDialog>
    </>
  );
}
