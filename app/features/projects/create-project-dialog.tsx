import { useState, type FormEvent } from 'react';
import { Plus } from 'lucide-react';
import { createProjectBodySchema } from '../../../common/schemas/projects.ts';
import { buttonClass } from '../../components/button-class.ts';
import { blankErrors, schemaErrors, type FieldErrors } from '../../components/forms/field-errors.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ProjectTextFields, REQUIRED_PROJECT_FIELDS, type ProjectTextKey } from './project-form-fields.tsx';
import { useCreateProject } from './projects-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('create-project');

/** The form's fields, as the shared schema (common/schemas/projects.ts) names them. */
const EMPTY: Record<ProjectTextKey, string> = { name: '', code: '', description: '', startDate: '', endDate: '', budget: '' };

/** 'Create New Project for {client}': name and code required; budget parsed to a number, default 0. */
export function CreateProjectDialog({ client }: { client: { _id: string; name: string } | null }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(EMPTY);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors<string>>({});
  const createProject = useCreateProject();
  // A field's message goes as soon as the field is filled in (a 'required' message must not linger over a valid field).
  const set = (key: ProjectTextKey) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
    if (value.trim()) setFieldErrors(({ [key]: _gone, ...rest }) => rest);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    toasts.clear(); // the last attempt's messages are no longer true
    const blank = blankErrors(form, REQUIRED_PROJECT_FIELDS);
    if (!client || Object.keys(blank).length > 0) {
      setFieldErrors(blank);
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

  return (
    <>
      <button type="button" className={buttonClass('primary')} onClick={() => setOpen(true)} disabled={!client}>
        <Plus className="size-4" aria-hidden="true" />
        Create New Project
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Create New Project for ${client?.name ?? ''}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
          <ProjectTextFields values={form} errors={fieldErrors} onChange={set} />
          <DialogFormActions onCancel={() => setOpen(false)} busy={createProject.isPending} submitLabel="Create Project" busyLabel="Creating..." />
        </form>
      </ModalDialog>
    </>
  );
}
