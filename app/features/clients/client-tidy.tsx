import { useId, useState } from 'react';
import { Archive, ArchiveRestore, Trash2 } from 'lucide-react';
import { CLIENT_STATUSES, type Client } from '../../../common/schemas/clients.ts';
import { LIST_SORTS, type DeleteOutcome, type ListSort } from '../../../common/schemas/archive.ts';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { FilterSelect } from '../../components/ui/filter-select.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { useArchiveClient, useDeleteClient, type ClientListView } from './clients-api.ts';

// Archive, restore and delete of a client, and the list's filter and order (issue 22, decisions 247-249).

const STATUS_LABELS: Record<(typeof LIST_STATUS_VALUES)[number], string> = {
  new: 'New',
  'in-progress': 'In progress',
  completed: 'Completed',
  archived: 'Archived',
  all: 'All, archived too',
};
const LIST_STATUS_VALUES = [...CLIENT_STATUSES, 'archived', 'all'] as const;
const SORT_LABELS: Record<ListSort, string> = { date: 'Newest first', name: 'Name', activity: 'Last activity' };

/** The status filter and the order of the client list. */
export function ClientListControls({ view, onChange }: { view: ClientListView; onChange: (view: ClientListView) => void }) {
  return (
    <div className="mb-3 grid grid-cols-1 gap-2">
      <FilterSelect
        label="Show"
        allLabel="Current clients"
        value={view.status || null}
        values={LIST_STATUS_VALUES}
        optionLabel={(v) => STATUS_LABELS[v]}
        onChange={(v) => onChange({ ...view, status: v as ClientListView['status'] })}
      />
      <FilterSelect
        label="Order"
        allLabel="Newest first"
        value={view.sort === 'date' ? null : view.sort || null}
        values={LIST_SORTS.filter((s) => s !== 'date')}
        optionLabel={(v) => SORT_LABELS[v]}
        onChange={(v) => onChange({ ...view, sort: v as ClientListView['sort'] })}
      />
    </div>
  );
}

/** "Deleted X: 2 projects, 3 reports, 4 messages and 5 stored files removed." */
function deletedSummary(d: DeleteOutcome): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return `Deleted ${d.name}: ${n(d.projects, 'project')}, ${n(d.reports, 'report')}, ${n(d.messages, 'message')} and ${n(d.files, 'stored file')} removed.`;
}

/** Archive or restore, and delete, for one client of the list. */
export function ClientTidyActions({ client }: { client: Client }) {
  const archive = useArchiveClient();
  const [confirming, setConfirming] = useState(false);
  const archived = client.archivedAt !== null;

  async function toggleArchive() {
    try {
      await archive.mutateAsync({ id: client._id, archived: !archived });
      toast({ title: archived ? `${client.name} restored: they can sign in again` : `${client.name} archived: signed out, sign-in refused` });
    } catch (err) {
      toastFailure(archived ? 'Failed to restore the client' : 'Failed to archive the client', err);
    }
  }

  return (
    <div className="flex flex-wrap gap-2">
      {/* The client's name is in the accessible name, not in hidden text: the list's text stays the name once. */}
      <button
        type="button"
        className={buttonClass('secondary')}
        onClick={toggleArchive}
        disabled={archive.isPending}
        aria-label={`${archived ? 'Restore' : 'Archive'} ${client.name}`}
      >
        {archived ? <ArchiveRestore className="size-4" aria-hidden="true" /> : <Archive className="size-4" aria-hidden="true" />}
        {archived ? 'Restore' : 'Archive'}
      </button>
      <button type="button" className={buttonClass('secondary')} onClick={() => setConfirming(true)} aria-label={`Delete ${client.name}`}>
        <Trash2 className="size-4" aria-hidden="true" />
        Delete
      </button>
      <DeleteClientDialog client={client} open={confirming} onClose={() => setConfirming(false)} />
    </div>
  );
}

/**
 * Names the client before deleting it. A client with history is refused by the server (409); the
 * dialog then offers archiving, or typing the name to delete it with everything.
 */
function DeleteClientDialog({ client, open, onClose }: { client: Client; open: boolean; onClose: () => void }) {
  const remove = useDeleteClient();
  const archive = useArchiveClient();
  const [needsName, setNeedsName] = useState(false);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const matches = typed.trim() === client.name.trim();

  function close() {
    setNeedsName(false);
    setTyped('');
    setProblem(null);
    onClose();
  }

  async function submit() {
    try {
      const res = await remove.mutateAsync({ id: client._id, confirmName: needsName ? typed : undefined });
      toast({ title: deletedSummary(res.deleted) });
      close();
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 409 && !needsName) {
        setNeedsName(true);
        setProblem(err.message);
      } else {
        setProblem(err instanceof Error ? err.message : 'Failed to delete the client');
      }
    }
  }

  async function archiveInstead() {
    try {
      await archive.mutateAsync({ id: client._id, archived: true });
      toast({ title: `${client.name} archived: signed out, sign-in refused` });
      close();
    } catch (err) {
      toastFailure('Failed to archive the client', err);
    }
  }

  return (
    <ModalDialog open={open} onClose={close} title={`Delete ${client.name}?`} description="The client, its projects and its sign-in are removed for good.">
      <div className="grid gap-4">
        {problem ? (
          <p role="alert" className="rounded-md border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-50">
            {problem}
          </p>
        ) : null}
        {needsName ? (
          <div>
            <label htmlFor={fieldId} className={labelClass}>
              Type <strong>{client.name}</strong> to delete it with all its reports, messages and files
            </label>
            <input id={fieldId} className={inputClass} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass('secondary')} onClick={close}>
            Cancel
          </button>
          {needsName && client.archivedAt === null ? (
            <button type="button" className={buttonClass('secondary')} onClick={archiveInstead} disabled={archive.isPending}>
              Archive instead
            </button>
          ) : null}
          <button type="button" className={buttonClass('danger')} onClick={submit} disabled={remove.isPending || (needsName && !matches)}>
            {needsName ? 'Delete with everything' : `Delete ${client.name}`}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
