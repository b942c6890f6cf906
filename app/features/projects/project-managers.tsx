import { useState, type FormEvent } from 'react';
import { UserCog } from 'lucide-react';
import type { Project } from '../../../common/schemas/projects.ts';
import { buttonClass } from '../../components/button-class.ts';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { scopedToasts } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { useProjectManagers, useSetProjectManagers } from './project-managers-api.ts';

const toasts = scopedToasts('project-managers');

/**
 * 'Project managers' on the project card (decision 277): who runs the project, and for owners and
 * admins a dialog to choose them from the staff with the project manager role (a list of
 * checkboxes: each is reached by Tab, toggled by Space and read with its name and e-mail address).
 * Anyone without the right to assign (the server answers 403) sees nothing of it.
 */
export function ProjectManagers({ project }: { project: Project }) {
  const managers = useProjectManagers(project._id);
  const save = useSetProjectManagers(project._id);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  if (managers.error instanceof ApiRequestError && managers.error.status === 403) return null;
  const data = managers.data;

  function openDialog() {
    setChosen(data?.managers.map((m) => m._id) ?? []);
    toasts.clear();
    setOpen(true);
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    try {
      await save.mutateAsync(chosen);
      toasts.show({ title: 'Project managers saved' });
      setOpen(false);
    } catch (err) {
      toasts.show({ title: 'Failed to save project managers', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  const toggle = (userId: string, on: boolean) => setChosen((now) => (on ? [...now, userId] : now.filter((x) => x !== userId)));

  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div className="min-w-0 text-sm">
        <h3 className="font-semibold">Project managers</h3>
        <p className="break-words text-slate-700 dark:text-slate-200" aria-live="polite">
          {managers.isPending ? 'Loading...' : managers.isError ? 'Failed to load project managers' : data!.managers.length === 0 ? 'None assigned' : data!.managers.map((m) => m.name).join(', ')}
        </p>
      </div>
      {data ? (
        <button type="button" className={buttonClass('secondary')} onClick={openDialog}>
          <UserCog className="size-4" aria-hidden="true" />
          Choose project managers
        </button>
      ) : null}
      <ModalDialog open={open} onClose={() => setOpen(false)} title={`Project managers of ${project.name}`} description="A project manager sees only the projects assigned to them, with their clients.">
        <form onSubmit={onSubmit} noValidate className="grid gap-3">
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Staff with the project manager role</legend>
            {data?.candidates.length === 0 ? <p className="text-sm text-slate-700 dark:text-slate-200">No staff member has the project manager role yet.</p> : null}
            {data?.candidates.map((c) => (
              <label key={c._id} className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md border border-slate-200 p-2 dark:border-slate-700">
                <input type="checkbox" className="mt-0.5 size-5 shrink-0 accent-brand-700" checked={chosen.includes(c._id)} onChange={(e) => toggle(c._id, e.target.checked)} />
                <span className="min-w-0 break-words">
                  <span className="block font-medium">{c.name}</span>
                  <span className="block text-sm text-slate-700 dark:text-slate-300">{c.email}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <DialogFormActions onCancel={() => setOpen(false)} busy={save.isPending} submitLabel="Save project managers" busyLabel="Saving..." />
        </form>
      </ModalDialog>
    </div>
  );
}
