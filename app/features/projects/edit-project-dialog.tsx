import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Pencil } from 'lucide-react';
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES, updateProjectBodySchema, type Project, type ProjectStatus, type UpdateProjectBody } from '../../../common/schemas/projects.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField, TextAreaField } from '../../components/forms/fields.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { detailErrors, schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { useUpdateProject } from './projects-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('edit-project');

type Fields = { name: string; code: string; description: string; startDate: string; endDate: string; budget: string; status: ProjectStatus };
type TextKey = Exclude<keyof Fields, 'status'>;
const STATUS_OPTIONS = PROJECT_STATUSES.map((status) => ({ value: status, label: PROJECT_STATUS_LABELS[status] }));

const fieldsOf = (project: Project): Fields => ({
  name: project.name,
  code: project.code,
  description: project.description,
  startDate: project.startDate ?? '',
  endDate: project.endDate ?? '',
  budget: project.budget === undefined ? '' : String(project.budget),
  status: project.status,
});

/**
 * 'Edit project': every field of creation plus the status, with creation's rules and messages.
 * Only what changed is sent, so another staff member's correction of another field stands.
 */
export function EditProjectDialog({ project }: { project: Project }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<Fields>(() => fieldsOf(project));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<keyof Fields>>({});
  const update = useUpdateProject();

  function openDialog() {
    setForm(fieldsOf(project));
    setFieldErrors({});
    setOpen(true);
  }
  const set = (key: keyof Fields) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
    setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear();
    if (!form.name.trim() || !form.code.trim()) {
      setFieldErrors({ ...(form.name.trim() ? {} : { name: 'Name is required' }), ...(form.code.trim() ? {} : { code: 'Code is required' }) });
      toasts.show({ title: 'Please fill in required fields', variant: 'destructive' });
      return;
    }
    const initial = fieldsOf(project);
    const changes: UpdateProjectBody = Object.fromEntries(Object.entries(form).filter(([key, value]) => value !== initial[key as keyof Fields]));
    if (Object.keys(changes).length === 0) {
      setOpen(false);
      return;
    }
    // The date rule is checked on the dates as they will be, not only on the ones that changed.
    const errors = schemaErrors<keyof Fields>(updateProjectBodySchema, { ...changes, startDate: form.startDate, endDate: form.endDate });
    const first = Object.values(errors)[0];
    if (first) {
      setFieldErrors(errors);
      toasts.show({ title: 'Failed to update project', description: first, variant: 'destructive' });
      return;
    }
    try {
      await update.mutateAsync({ id: project._id, changes });
      toasts.show({ title: 'Project updated successfully' });
      setOpen(false);
    } catch (err) {
      setFieldErrors(detailErrors<keyof Fields>(err, (message) => (message.startsWith('A project with the code') ? 'code' : null)));
      toastFailure('Failed to update project', err);
    }
  }

  const field = (key: TextKey, label: string, props: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <InputField label={label} value={form[key]} onChange={set(key)} error={fieldErrors[key]} {...props} />
  );

  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={openDialog}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit project
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Edit project ${project.name}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label={`Edit project ${project.name}`}>
          <p className="text-sm text-slate-600 dark:text-slate-300">Fields marked * are required.</p>
          <div className="grid gap-3 sm:grid-cols-2">
            {field('name', 'Project name *', { autoComplete: 'off' })}
            {field('code', 'Project code *', { autoComplete: 'off', autoCapitalize: 'characters' })}
          </div>
          <TextAreaField label="Description" rows={3} value={form.description} onChange={set('description')} error={fieldErrors.description} />
          <div className="grid gap-3 sm:grid-cols-3">
            {field('startDate', 'Start date', { type: 'date' })}
            {field('endDate', 'End date', { type: 'date' })}
            {field('budget', 'Budget (NGN)', { inputMode: 'decimal', placeholder: '0' })}
          </div>
          <SelectField label="Status" options={STATUS_OPTIONS} value={form.status} onChange={set('status')} error={fieldErrors.status} />
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save changes'}
            </button>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}
