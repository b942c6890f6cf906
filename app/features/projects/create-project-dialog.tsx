import { useId, useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { createProjectBodySchema } from '../../../common/schemas/projects.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { useCreateProject } from './projects-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('create-project');

const EMPTY = { name: '', code: '', description: '', startDate: '', endDate: '', budget: '' };

/** 'Create New Project for {client}': name and code required; budget parsed to a number, default 0. */
export function CreateProjectDialog({ client }: { client: { _id: string; name: string } | null }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
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
      setFieldErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
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

  const field = (key: keyof typeof EMPTY, label: string, props: Record<string, unknown> = {}) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        className={inputClass}
        value={form[key]}
        onChange={set(key)}
        aria-invalid={fieldErrors[key] ? true : undefined}
        aria-describedby={fieldErrors[key] ? `${id}-${key}-error` : undefined}
        {...props}
      />
      {fieldErrors[key] ? (
        <p id={`${id}-${key}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {fieldErrors[key]}
        </p>
      ) : null}
    </div>
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
          <div>
            <label htmlFor={`${id}-description`} className={labelClass}>
              Description
            </label>
            <textarea id={`${id}-description`} rows={3} className={inputClass} value={form.description} onChange={set('description')} />
          </div>
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
