import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ConfirmDialog } from '../../components/portal/confirm-dialog.tsx';
import { Download, FileDiff, Paperclip, Trash2 } from 'lucide-react';
import { formatDate, formatDay } from '../../../common/dates.ts';
import { formatKobo, koboToDecimal } from '../../../common/money.ts';
import {
  CHANGE_ORDER_ATTACHMENT_MAX_BYTES,
  CHANGE_ORDER_ATTACHMENTS_MAX,
  CHANGE_ORDER_STATUS_LABELS,
  type ChangeOrder,
  type ChangeOrderAttachment,
  type ContractHistory,
  scheduleImpactLabel,
} from '../../../common/schemas/change-orders.ts';
import { DOCUMENT_ACCEPT } from '../../../common/schemas/documents.ts';
import { fileSizeLabel } from '../../../common/schemas/media.ts';
import { FilePicker } from '../../components/forms/file-picker.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { changeOrderCertificateUrl, useChangeOrderAction, useChangeOrders } from './change-orders-api.ts';

/** The contract history: original sum, each approved change in order, current sum; the end date likewise. */
function ContractHistoryTable({ history, approved }: { history: ContractHistory; approved: ChangeOrder[] }) {
  const inOrder = [...approved].sort((a, b) => (a.decidedAt ?? '').localeCompare(b.decidedAt ?? ''));
  return (
    <div className="overflow-x-auto" data-testid="contract-history">
      <table className="w-full min-w-0 text-sm">
        <caption className="mb-2 text-left font-medium">Contract sum and end date history</caption>
        <thead>
          <tr className="border-b border-slate-300 text-left dark:border-slate-600">
            <th scope="col" className="py-1 pr-2">Change</th>
            <th scope="col" className="py-1 pr-2 text-right">Amount</th>
            <th scope="col" className="py-1 text-right">End date</th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            <th scope="row" className="py-1 pr-2 text-left font-normal">Original sum</th>
            <td className="py-1 pr-2 text-right tabular-nums">{formatKobo(history.originalBudgetKobo)}</td>
            <td className="py-1 text-right">{formatDay(history.originalEndDate)}</td>
          </tr>
          {inOrder.map((co) => (
            <tr key={co._id} className="border-b border-slate-200 dark:border-slate-700">
              <th scope="row" className="py-1 pr-2 text-left font-normal">
                {co.reference}, approved {co.decidedAt ? formatDate(co.decidedAt) : ''}
              </th>
              <td className="py-1 pr-2 text-right tabular-nums">{formatKobo(co.costKobo, { signed: true })}</td>
              <td className="py-1 text-right">{scheduleImpactLabel(co.scheduleDays)}</td>
            </tr>
          ))}
          <tr className="font-semibold">
            <th scope="row" className="py-1 pr-2 text-left">Current sum</th>
            <td className="py-1 pr-2 text-right tabular-nums" data-testid="current-sum">
              {formatKobo(history.currentBudgetKobo)}
            </td>
            <td className="py-1 text-right" data-testid="current-end-date">
              {formatDay(history.currentEndDate)}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

type Draft = { title: string; description: string; cost: string; scheduleDays: string };
const EMPTY: Draft = { title: '', description: '', cost: '', scheduleDays: '0' };

/** Staff's form for a new change order or a draft's correction. */
function ChangeOrderForm({ initial, busy, error, onSave, onCancel }: { initial: Draft; busy: boolean; error: string | null; onSave: (d: Draft) => void; onCancel?: () => void }) {
  const id = useId();
  const [d, setD] = useState(initial);
  const set = (k: keyof Draft) => (e: { target: { value: string } }) => setD({ ...d, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSave(d);
  };
  return (
    <form onSubmit={submit} className="grid gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700" aria-label={onCancel ? 'Edit change order' : 'New change order'}>
      <div>
        <label htmlFor={`${id}-title`} className={labelClass}>Title</label>
        <input id={`${id}-title`} className={inputClass} value={d.title} onChange={set('title')} required maxLength={200} />
      </div>
      <div>
        <label htmlFor={`${id}-description`} className={labelClass}>What changes</label>
        <textarea id={`${id}-description`} className={inputClass} rows={3} value={d.description} onChange={set('description')} required />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-cost`} className={labelClass}>Cost impact (NGN, negative lowers the sum)</label>
          <input id={`${id}-cost`} className={inputClass} inputMode="decimal" placeholder="4,500,000.50" value={d.cost} onChange={set('cost')} required />
        </div>
        <div>
          <label htmlFor={`${id}-days`} className={labelClass}>Schedule impact (days)</label>
          <input id={`${id}-days`} className={inputClass} type="number" step={1} value={d.scheduleDays} onChange={set('scheduleDays')} required />
        </div>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={buttonClass('primary')} disabled={busy}>
          {busy ? 'Saving...' : 'Save draft'}
        </button>
        {onCancel ? (
          <button type="button" className={buttonClass('secondary')} onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** The client approver's decision: approve, or decline with the reason. */
function DecisionForm({ co, busy, error, onDecide }: { co: ChangeOrder; busy: boolean; error: string | null; onDecide: (decision: 'approve' | 'decline', comment: string) => void }) {
  const id = useId();
  const [comment, setComment] = useState('');
  return (
    <div className="mt-3 grid gap-2">
      <label htmlFor={`${id}-comment`} className={labelClass}>Comment (required to decline)</label>
      <textarea id={`${id}-comment`} className={inputClass} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass('primary')} disabled={busy} onClick={() => onDecide('approve', comment)} aria-label={`Approve ${co.reference}`}>
          Approve
        </button>
        <button type="button" className={buttonClass('danger')} disabled={busy} onClick={() => onDecide('decline', comment)} aria-label={`Decline ${co.reference}`}>
          Decline
        </button>
      </div>
    </div>
  );
}

const ATTACHMENT_MAX_MB = CHANGE_ORDER_ATTACHMENT_MAX_BYTES / (1024 * 1024);

/** A change order's files as download links with their sizes (the client's view, and staff's once sent). */
function AttachmentList({ co }: { co: ChangeOrder }) {
  if (co.attachments.length === 0) return null;
  return (
    <div className="mt-2">
      <h5 className="text-sm font-medium text-slate-700 dark:text-slate-200">Attachments</h5>
      <ul className="mt-1 grid gap-1 text-sm" aria-label={`Attachments of ${co.reference}`}>
        {co.attachments.map((a) => (
          <li key={a._id} className="flex min-w-0 items-center gap-2">
            <Paperclip className="size-4 shrink-0 text-slate-600 dark:text-slate-300" aria-hidden="true" />
            <a href={a.url} download className="min-w-0 break-all text-brand-700 underline underline-offset-2 dark:text-sky-300">
              {a.fileName}
            </a>
            <span className="shrink-0 text-slate-700 dark:text-slate-300">({fileSizeLabel(a.size)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Staff's attachments of a draft: choose files (one request each, in turn, with "Uploading 1 of 2..."
 * while they go), see them with their sizes, remove one. The server's refusals show in an alert.
 */
function DraftAttachments({ co, projectId, clientId }: { co: ChangeOrder; projectId: string; clientId: string }) {
  const id = useId();
  const action = useChangeOrderAction(projectId, clientId);
  const picker = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const full = co.attachments.length >= CHANGE_ORDER_ATTACHMENTS_MAX;
  const busy = progress !== null || action.isPending;

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = [...(event.target.files ?? [])];
    if (picker.current) picker.current.value = '';
    const problems: string[] = [];
    const room = CHANGE_ORDER_ATTACHMENTS_MAX - co.attachments.length;
    const files = chosen.filter((f) => {
      if (f.size <= CHANGE_ORDER_ATTACHMENT_MAX_BYTES) return true;
      problems.push(`${f.name} is larger than ${ATTACHMENT_MAX_MB} MB, the largest change order attachment`);
      return false;
    });
    if (files.length > room) problems.push(`A change order holds at most ${CHANGE_ORDER_ATTACHMENTS_MAX} attachments: ${files.length - room} not attached`);
    const sending = files.slice(0, Math.max(0, room));
    try {
      for (const [i, file] of sending.entries()) {
        setProgress(`Uploading ${file.name} (${i + 1} of ${sending.length})...`);
        try {
          await action.mutateAsync({ kind: 'attach', id: co._id, file });
        } catch (err) {
          problems.push(err instanceof Error ? err.message : `Failed to attach ${file.name}`);
        }
      }
    } finally {
      setProgress(null);
      setErrors(problems);
    }
  }

  return (
    <section className="mt-3 grid gap-2 rounded-md border border-dashed border-slate-300 p-3 dark:border-slate-600" aria-labelledby={`${id}-heading`}>
      <h5 id={`${id}-heading`} className="text-sm font-semibold">
        Attachments
      </h5>
      {co.attachments.length > 0 ? (
        <ul className="grid gap-1 text-sm" aria-label={`Attachments of ${co.reference}`}>
          {co.attachments.map((a: ChangeOrderAttachment) => (
            <li key={a._id} className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
              <span className="min-w-0 break-all">
                <a href={a.url} download className="text-brand-700 underline underline-offset-2 dark:text-sky-300">
                  {a.fileName}
                </a>{' '}
                <span className="text-slate-700 dark:text-slate-300">({fileSizeLabel(a.size)})</span>
              </span>
              <button
                type="button"
                className={buttonClass('ghost')}
                disabled={busy}
                aria-label={`Remove ${a.fileName}`}
                onClick={() => {
                  setErrors([]);
                  action.mutate({ kind: 'detach', id: co._id, attachmentId: a._id }, { onError: (err) => setErrors([err.message]) });
                }}
              >
                <Trash2 className="size-4" aria-hidden="true" />
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">No files attached.</p>
      )}
      <div>
        <span id={`${id}-label`} className="text-sm font-medium">
          Attach files (PDF, image, Word, Excel, PowerPoint, DWG, DXF or ZIP; up to {ATTACHMENT_MAX_MB} MB each, {CHANGE_ORDER_ATTACHMENTS_MAX} at most)
        </span>
        <FilePicker
          labelledBy={`${id}-label`}
          buttonText={full ? 'Attachments full' : 'Choose files'}
          count={co.attachments.length}
          accept={DOCUMENT_ACCEPT}
          multiple
          disabled={busy || full}
          inputRef={picker}
          onChange={(e) => void choose(e)}
        />
      </div>
      <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
        {progress ?? ''}
      </p>
      {errors.length > 0 ? (
        <div role="alert" className="text-sm text-red-700 dark:text-red-300">
          {errors.map((e) => (
            <p key={e}>{e}</p>
          ))}
        </div>
      ) : null}
    </section>
  );
}

function ChangeOrderCard(props: { co: ChangeOrder; staff: boolean; canDecide: boolean; readOnly: boolean; projectId: string; clientId: string }) {
  const { co, staff, canDecide, readOnly } = props;
  const action = useChangeOrderAction(props.projectId, props.clientId);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const error = action.error ? action.error.message : null;
  return (
    <article aria-labelledby={`co-${co._id}`} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-testid="change-order">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h4 id={`co-${co._id}`} className="font-semibold">
          {co.reference}: {co.title}
        </h4>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-100">{CHANGE_ORDER_STATUS_LABELS[co.status]}</span>
      </div>
      <p className="mt-1 whitespace-pre-line text-sm">{co.description}</p>
      <dl className="mt-2 grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="font-medium text-slate-700 dark:text-slate-200">Cost impact</dt>
          <dd className="tabular-nums">{formatKobo(co.costKobo, { signed: true })}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700 dark:text-slate-200">Schedule impact</dt>
          <dd>{scheduleImpactLabel(co.scheduleDays)}</dd>
        </div>
      </dl>
      {staff && !readOnly && co.status === 'draft' ? <DraftAttachments co={co} projectId={props.projectId} clientId={props.clientId} /> : <AttachmentList co={co} />}
      {co.decidedAt ? (
        <p className="mt-2 text-xs text-slate-700 dark:text-slate-200">
          {co.status === 'approved' ? 'Approved' : 'Declined'} by {co.decidedByName} on {formatDate(co.decidedAt)}
          {co.decisionComment ? `: "${co.decisionComment}"` : ''}
        </p>
      ) : null}
      {co.decidedAt ? (
        <div className="mt-2">
          <a href={changeOrderCertificateUrl(co._id)} download className={buttonClass('secondary')}>
            <Download className="size-4" aria-hidden="true" />
            Certificate (PDF)<span className="sr-only"> of {co.reference}</span>
          </a>
        </div>
      ) : null}
      {staff && !readOnly && co.status === 'draft' && editing ? (
        <div className="mt-3">
          <ChangeOrderForm
            initial={{ title: co.title, description: co.description, cost: koboToDecimal(co.costKobo), scheduleDays: String(co.scheduleDays) }}
            busy={action.isPending}
            error={error}
            onCancel={() => setEditing(false)}
            onSave={(d) => action.mutate({ kind: 'update', id: co._id, body: { ...d, scheduleDays: Number(d.scheduleDays) } }, { onSuccess: () => setEditing(false) })}
          />
        </div>
      ) : null}
      {staff && !readOnly && (co.status === 'draft' || co.status === 'sent') && !editing ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {co.status === 'draft' ? (
            <>
              <button type="button" className={buttonClass('secondary')} onClick={() => setEditing(true)} aria-label={`Edit ${co.reference}`}>
                Edit
              </button>
              <button type="button" className={buttonClass('primary')} disabled={action.isPending} onClick={() => action.mutate({ kind: 'send', id: co._id })} aria-label={`Send ${co.reference} to the client`}>
                Send to client
              </button>
              <button type="button" className={buttonClass('secondary')} disabled={action.isPending} onClick={() => setDeleting(true)} aria-label={`Delete draft ${co.reference}`}>
                Delete draft
              </button>
              <ConfirmDialog
                open={deleting}
                onClose={() => setDeleting(false)}
                title={`Delete draft ${co.reference}?`}
                description={`The draft "${co.title}" and its ${co.attachments.length === 1 ? 'attachment' : `${co.attachments.length} attachments`} are removed for good. The client never saw it.`}
                confirmLabel="Delete draft"
                busyLabel="Deleting..."
                danger
                busy={action.isPending}
                error={error}
                onConfirm={() => action.mutate({ kind: 'delete', id: co._id }, { onSuccess: () => setDeleting(false) })}
              />
            </>
          ) : null}
          <button type="button" className={buttonClass('ghost')} disabled={action.isPending} onClick={() => action.mutate({ kind: 'withdraw', id: co._id })} aria-label={`Withdraw ${co.reference}`}>
            Withdraw
          </button>
          {error ? (
            <p role="alert" className="w-full text-sm text-red-700 dark:text-red-300">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
      {!staff && canDecide && co.status === 'sent' ? (
        <DecisionForm co={co} busy={action.isPending} error={error} onDecide={(decision, comment) => action.mutate({ kind: 'decide', id: co._id, body: { decision, comment } })} />
      ) : null}
    </article>
  );
}

/**
 * A project's change orders (decision 294): the contract history, then each change order. Staff
 * draft, correct, send and withdraw (not on a read-only project); a client person who may decide
 * approves or declines what was sent.
 */
export function ChangeOrdersPanel({ projectId, clientId, staff = false, canDecide = false, readOnly = false }: { projectId: string; clientId: string; staff?: boolean; canDecide?: boolean; readOnly?: boolean }) {
  const list = useChangeOrders(projectId);
  const create = useChangeOrderAction(projectId, clientId);
  const [formKey, setFormKey] = useState(0);
  if (list.isPending) return <InlineLoading label="Loading change orders..." />;
  if (list.isError) return <ErrorState title="Failed to load change orders" error={list.error} onRetry={() => list.refetch()} />;
  const { changeOrders, history } = list.data;
  return (
    <div className="grid gap-3">
      <ContractHistoryTable history={history} approved={changeOrders.filter((c) => c.status === 'approved')} />
      {staff && !readOnly ? (
        <details className="text-sm">
          <summary className="min-h-8 cursor-pointer py-1 font-medium text-brand-700 dark:text-sky-300">New change order</summary>
          <div className="mt-2">
            <ChangeOrderForm
              key={formKey}
              initial={EMPTY}
              busy={create.isPending}
              error={create.error ? create.error.message : null}
              onSave={(d) => create.mutate({ kind: 'create', body: { ...d, scheduleDays: Number(d.scheduleDays) } }, { onSuccess: () => setFormKey((k) => k + 1) })}
            />
          </div>
        </details>
      ) : null}
      {changeOrders.length === 0 ? (
        <EmptyState icon={<FileDiff className="size-8" aria-hidden="true" />} title="No change orders" description={staff ? 'Draft one when the scope, cost or schedule changes.' : 'Change orders sent for your decision will appear here.'} />
      ) : (
        changeOrders.map((co) => <ChangeOrderCard key={co._id} co={co} staff={staff} canDecide={canDecide} readOnly={readOnly} projectId={projectId} clientId={clientId} />)
      )}
    </div>
  );
}
