import { useState } from 'react';
import { Download } from 'lucide-react';
import { ConfirmDialog } from '../../components/portal/confirm-dialog.tsx';
import { formatDate } from '../../../common/dates.ts';
import { formatKobo, koboToDecimal } from '../../../common/money.ts';
import { CHANGE_ORDER_STATUS_LABELS, scheduleImpactLabel, type ChangeOrder } from '../../../common/schemas/change-orders.ts';
import { buttonClass } from '../../components/button-class.ts';
import { AttachmentList, DraftAttachments } from './change-order-attachments.tsx';
import { ChangeOrderForm, DecisionForm } from './change-order-forms.tsx';
import { changeOrderCertificateUrl, useChangeOrderAction } from './change-orders-api.ts';

/** One change order: its facts, files and decision, and the actions open to this viewer (edit, send, delete, withdraw, decide). */
export function ChangeOrderCard(props: { co: ChangeOrder; staff: boolean; canDecide: boolean; readOnly: boolean; projectId: string; clientId: string }) {
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
