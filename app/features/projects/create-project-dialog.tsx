import { useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Plus } from 'lucide-react';
import { createProjectBodySchema } from '../../../common/schemas/projects.ts';
import { buttonClass } from '../../components/button-class.ts';
import { schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { InputField, TextAreaField } from '../../components/forms/fields.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useCreateProject } from './projects-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('create-project');

/** The form's fields, as the shared schema (common/schemas/projects.ts) names them. */
const EMPTY = { name: '', code: '', description: '', startDate: '', endDate: '', budget: '' };

/** 'Create New Project for {client}': name and code required; budget parsed to a number, default 0. */
export function CreateProjectDialog({ client }: { client: { _id: string; name: string } | null }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<string>>({});
  const createProject = useCreateProject();
  // A field's message goes as soon as the field is filled in (a 'required' message must not linger over a valid field).
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
    if (value.trim()) setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    if (!client || !form.name.trim() || !form.code.trim()) {
      setFieldErrors({ ...(form.name.trim() ? {} : { name: 'Name is required' }), ...(form.code.trim() ? {} : { code: 'Code is required' }) });
      toasts.show({ title: 'Please fill in required fields', variant: 'destructive' });
      return;
    }
    const parsed = createProjectBodySchema.safeParse({ ...form, clientId: client._id });
    if (!parsed.success) {
      setFieldErrors(schemaErrors(createProjectBodySchema, { ...form, clientId: client._id }));
      toasts.show({ title: 'Failed to create project', description: parsed.error.issues[0]?.message, variant: 'destructive' });
      return;
    }
    setFieldErrors({});
    try {
      await createProject.mutateAsync({ ...form, clientId: client._id });
      toasts.show({ title: 'Project created successfully' });
      setForm(EMPTY);
      setOpen(false);
    } catch (err) {
      toastFailure('Failed to create project', err);
    }
  }

  const field = (key: keyof typeof EMPTY, label: string, props: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <InputField label={label} value={form[key]} onChange={set(key)} error={fieldErrors[key]} {...props} />
  );

  return (
    <>
      <button type="button" className={buttonClass('primary')} onClick={() => setOpen(true)} disabled={!client}>
        <Plus className="size-4" aria-hidden="true" />
        Create New Project
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Create New Project for ${client?.name ?? ''}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
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
          <div className="mt-2 flex flex-wrap justify-end gap-2">
            <button type="button" className={buttonClass('secondary')} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={createProject.isPending}>
              {createProject.isPending ? 'Creating...' : 'Create Project'}
            </button>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}
