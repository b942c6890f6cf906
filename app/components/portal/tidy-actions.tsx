import { useId, useState } from 'react';
import { Archive, ArchiveRestore, Trash2 } from 'lucide-react';
import { LIST_SORTS, type DeleteOutcome, type DeleteResponse, type ListSort } from '../../../common/schemas/archive.ts';
import { ModalDialog } from './modal-dialog.tsx';
import { FilterSelect } from '../ui/filter-select.tsx';
import { buttonClass } from '../button-class.ts';
import { inputClass, labelClass } from '../forms/field-classes.ts';
import { toastFailure } from './notify.ts';
import { toast } from '../ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';

// Archive, restore and delete of a client or a project, and a list's filter and order (issue 22,
// decisions 247-249): one set of controls for both kinds, each feature passing its own calls and words.

/** A list's view (decision 248): both empty is the specification's default list. */
export interface ListView<S extends string> {
  status: S | 'archived' | 'all' | '';
  sort: ListSort | '';
}

const SORT_LABELS: Record<ListSort, string> = { date: 'Newest first', name: 'Name', activity: 'Last activity' };

/** The status filter ('Show', with 'Archived' and 'All, archived too') and the order of a list. */
export function ListViewControls<S extends string>({
  view,
  onChange,
  statusLabels,
  currentLabel,
  noun = '',
}: {
  view: ListView<S>;
  onChange: (view: ListView<S>) => void;
  /** The kind's statuses, in order, with their labels. */
  statusLabels: Record<S, string>;
  /** The default option: everything not archived ("Current clients"). */
  currentLabel: string;
  /** Named in the labels ('Show projects') where a page has two lists with these controls. */
  noun?: string;
}) {
  const of = noun ? ` ${noun}` : '';
  const labels: Record<string, string> = { ...statusLabels, archived: 'Archived', all: 'All, archived too' };
  const values = Object.keys(labels) as ListView<S>['status'][];
  return (
    <div className="mb-3 grid grid-cols-1 gap-2">
      <FilterSelect
        label={`Show${of}`}
        allLabel={currentLabel}
        value={view.status || null}
        values={values}
        optionLabel={(v) => labels[v]}
        onChange={(v) => onChange({ ...view, status: v as ListView<S>['status'] })}
      />
      <FilterSelect
        label={`Order${of}`}
        allLabel="Newest first"
        value={view.sort === 'date' ? null : view.sort || null}
        values={LIST_SORTS.filter((s) => s !== 'date')}
        optionLabel={(v) => SORT_LABELS[v]}
        onChange={(v) => onChange({ ...view, sort: v as ListView<S>['sort'] })}
      />
    </div>
  );
}

/** The mark of an archived (read-only) record beside its name, in words. */
export function ArchivedBadge() {
  return <span className="ml-2 rounded-full border border-slate-500 px-2 text-xs font-medium whitespace-nowrap">Archived</span>;
}

/** "Deleted X: 2 projects, 3 reports, 4 messages and 5 stored files removed." */
function deletedSummary(d: DeleteOutcome): string {
  const n = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;
  return `Deleted ${d.name}: ${n(d.projects, 'project')}, ${n(d.reports, 'report')}, ${n(d.messages, 'message')} and ${n(d.files, 'stored file')} removed.`;
}

/** The feature's archive and delete calls (its TanStack mutations fit these shapes). */
export interface TidyCalls {
  archive: { mutateAsync: (v: { id: string; archived: boolean }) => Promise<unknown>; isPending: boolean };
  remove: { mutateAsync: (v: { id: string; confirmName?: string }) => Promise<DeleteResponse>; isPending: boolean };
}

/** What the controls say about one kind of record. */
export interface TidyTexts {
  /** 'client' or 'project', in the failure messages. */
  kind: string;
  archived: (name: string) => string;
  restored: (name: string) => string;
  /** The confirmation's description: what goes with the record. */
  deletes: string;
}

interface TidyRecord {
  _id: string;
  name: string;
  archivedAt: string | null;
}

/** Archive or restore, and delete, for one record. `onArchived` and `onDeleted` run after success. */
export function TidyActions({
  record,
  calls,
  texts,
  onArchived,
  onDeleted,
}: {
  record: TidyRecord;
  calls: TidyCalls;
  texts: TidyTexts;
  onArchived?: (archived: boolean) => void;
  onDeleted?: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const archived = record.archivedAt !== null;

  async function toggleArchive() {
    try {
      await calls.archive.mutateAsync({ id: record._id, archived: !archived });
      toast({ title: archived ? texts.restored(record.name) : texts.archived(record.name) });
      onArchived?.(!archived);
    } catch (err) {
      toastFailure(`Failed to ${archived ? 'restore' : 'archive'} the ${texts.kind}`, err);
    }
  }

  return (
    <div className="flex flex-wrap gap-2">
      {/* The record's name is in the accessible name, not in hidden text: the list's text stays the name once. */}
      <button
        type="button"
        className={buttonClass('secondary')}
        onClick={toggleArchive}
        disabled={calls.archive.isPending}
        aria-label={`${archived ? 'Restore' : 'Archive'} ${record.name}`}
      >
        {archived ? <ArchiveRestore className="size-4" aria-hidden="true" /> : <Archive className="size-4" aria-hidden="true" />}
        {archived ? 'Restore' : 'Archive'}
      </button>
      <button type="button" className={buttonClass('secondary')} onClick={() => setConfirming(true)} aria-label={`Delete ${record.name}`}>
        <Trash2 className="size-4" aria-hidden="true" />
        Delete
      </button>
      <DeleteDialog
        record={record}
        calls={calls}
        texts={texts}
        open={confirming}
        onClose={() => setConfirming(false)}
        onArchived={() => onArchived?.(true)}
        onDeleted={onDeleted}
      />
    </div>
  );
}

/**
 * Names the record before deleting it. One with history is refused by the server (409); the dialog
 * then offers archiving, or typing the name to delete it with everything.
 */
function DeleteDialog({
  record,
  calls,
  texts,
  open,
  onClose,
  onArchived,
  onDeleted,
}: {
  record: TidyRecord;
  calls: TidyCalls;
  texts: TidyTexts;
  open: boolean;
  onClose: () => void;
  onArchived: () => void;
  onDeleted?: () => void;
}) {
  const [needsName, setNeedsName] = useState(false);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const fieldId = useId();
  const matches = typed.trim() === record.name.trim();

  function close() {
    setNeedsName(false);
    setTyped('');
    setProblem(null);
    onClose();
  }

  async function submit() {
    try {
      const res = await calls.remove.mutateAsync({ id: record._id, confirmName: needsName ? typed : undefined });
      toast({ title: deletedSummary(res.deleted) });
      close();
      onDeleted?.();
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 409 && !needsName) {
        setNeedsName(true);
        setProblem(err.message);
      } else {
        setProblem(err instanceof Error ? err.message : `Failed to delete the ${texts.kind}`);
      }
    }
  }

  async function archiveInstead() {
    try {
      await calls.archive.mutateAsync({ id: record._id, archived: true });
      toast({ title: texts.archived(record.name) });
      close();
      onArchived();
    } catch (err) {
      toastFailure(`Failed to archive the ${texts.kind}`, err);
    }
  }

  return (
    <ModalDialog open={open} onClose={close} title={`Delete ${record.name}?`} description={texts.deletes}>
      <div className="grid gap-4">
        {problem ? (
          <p role="alert" className="rounded-md border border-amber-700 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-50">
            {problem}
          </p>
        ) : null}
        {needsName ? (
          <div>
            <label htmlFor={fieldId} className={labelClass}>
              Type <strong>{record.name}</strong> to delete it with all its reports, messages and files
            </label>
            <input id={fieldId} className={inputClass} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" spellCheck={false} />
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonClass('secondary')} onClick={close}>
            Cancel
          </button>
          {needsName && record.archivedAt === null ? (
            <button type="button" className={buttonClass('secondary')} onClick={archiveInstead} disabled={calls.archive.isPending}>
              Archive instead
            </button>
          ) : null}
          <button type="button" className={buttonClass('danger')} onClick={submit} disabled={calls.remove.isPending || (needsName && !matches)}>
            {needsName ? 'Delete with everything' : `Delete ${record.name}`}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
}
