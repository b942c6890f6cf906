import { koboToDecimal } from '../../../common/money.ts';
import type { FormEvent } from 'react';
import { Pencil } from 'lucide-react';
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES, updateProjectBodySchema, type Project, type ProjectStatus } from '../../../common/schemas/projects.ts';
import { buttonClass } from '../../components/button-class.ts';
import { SelectField } from '../../components/forms/fields.tsx';
import { useEditForm } from '../../components/forms/use-edit-form.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ProjectTextFields, REQUIRED_PROJECT_FIELDS } from './project-form-fields.tsx';
import { useUpdateProject } from './projects-api.ts';

// A message belongs to one attempt: this form's toasts replace each other (issue 21).
const toasts = scopedToasts('edit-project');

type Fields = { name: string; code: string; description: string; startDate: string; endDate: string; budget: string; status: ProjectStatus };
const STATUS_OPTIONS = PROJECT_STATUSES.map((status) => ({ value: status, label: PROJECT_STATUS_LABELS[status] }));

const fieldsOf = (project: Project): Fields => ({
  name: project.name,
  code: project.code,
  description: project.description,
  startDate: project.startDate ?? '',
  endDate: project.endDate ?? '',
  budget: project.budgetKobo !== undefined ? koboToDecimal(project.budgetKobo) : project.budget === undefined ? '' : String(project.budget),
  status: project.status,
});

/**
 * 'Edit project': every field of creation plus the status, with creation's rules and messages.
 * Only what changed is sent, so another staff member's correction of another field stands.
 */
export function EditProjectDialog({ project }: { project: Project }) {
  const { open, close, openDialog, form, fieldErrors, set, changesToSend, failed } = useEditForm(() => fieldsOf(project), toasts);
  const update = useUpdateProject();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const changes = changesToSend({
      required: REQUIRED_PROJECT_FIELDS,
      requiredTitle: 'Please fill in required fields',
      schema: updateProjectBodySchema,
      failedTitle: 'Failed to update project',
      // The date rule is checked on the dates as they will be, not only on the ones that changed.
      checked: (changed) => ({ ...changed, startDate: form.startDate, endDate: form.endDate }),
    });
    if (!changes) return;
    try {
      await update.mutateAsync({ id: project._id, changes });
      toasts.show({ title: 'Project updated successfully' });
      close();
    } catch (err) {
      failed('Failed to update project', err, (message) => (message.startsWith('A project with the code') ? 'code' : null));
    }
  }

  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={openDialog}>
        <Pencil className="size-4" aria-hidden="true" />
        Edit project
      </button>
      <ModalDialog open={open} onClose={close} title={`Edit project ${project.name}`}>
        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label={`Edit project ${project.name}`}>
          <ProjectTextFields values={form} errors={fieldErrors} onChange={set} />
          <SelectField label="Status" options={STATUS_OPTIONS} value={form.status} onChange={set('status')} error={fieldErrors.status} />
          <DialogFormActions onCancel={close} busy={update.isPending} submitLabel="Save changes" busyLabel="Saving..." />
        </form>
      </ModalDialog>
    </>
  );
}
