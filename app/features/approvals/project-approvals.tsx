import { useId, useState } from 'react';
import { CheckCircle2, Download, XCircle } from 'lucide-react';
import { todayIso, formatDay, formatDateTime } from '../../../common/dates.ts';
import type { Approval } from '../../../common/schemas/approvals.ts';
import { buttonClass } from '../../components/button-class.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { panelClass } from '../../components/portal/selected-project-panel.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { InputField, SelectField, TextAreaField } from '../../components/forms/fields.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { useApprovalSubjects, useCloseApproval, useDecideApproval, useProjectApprovals, useRequestApproval } from './approvals-api.ts';

const STATUS_TEXT: Record<Approval['status'], string> = { pending: 'Waiting for the client', approved: 'Approved', rejected: 'Rejected', withdrawn: 'Withdrawn' };
const STATUS_CLASS: Record<Approval['status'], string> = {
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  approved: 'bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100',
  rejected: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  withdrawn: 'bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
};

/** The client's decision on one waiting request: an optional comment to approve, a required one to reject. */
function DecisionForm({ approval }: { approval: Approval }) {
  const decide = useDecideApproval();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  function send(decision: 'approved' | 'rejected') {
    if (decision === 'rejected' && !comment.trim()) {
      setError('Say why you reject it: a comment is required');
      document.getElementById(`${id}-comment`)?.focus();
      return;
    }
    setError(undefined);
    decide.mutate(
      { id: approval._id, decision, comment },
      {
        onSuccess: () => toast({ title: decision === 'approved' ? 'Approved' : 'Rejected', description: approval.subjectTitle }),
        onError: (err) => toastFailure('Failed to record your decision', err),
      },
    );
  }
  return (
    <form className="mt-3 grid gap-2" onSubmit={(e) => e.preventDefault()} aria-label={`Your decision on ${approval.subjectTitle}`}>
      <TextAreaField id={`${id}-comment`} label="Comment (required to reject)" value={comment} onChange={(e) => setComment(e.target.value)} error={error} maxLength={2000} />
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass('primary')} disabled={decide.isPending} onClick={() => send('approved')}>
          <CheckCircle2 className="size-4" aria-hidden="true" />
          Approve
        </button>
        <button type="button" className={buttonClass('secondary')} disabled={decide.isPending} onClick={() => send('rejected')}>
          <XCircle className="size-4" aria-hidden="true" />
          Reject
        </button>
      </div>
    </form>
  );
}

function ApprovalCard({ approval, canDecide, staff, readOnly }: { approval: Approval; canDecide: boolean; staff: boolean; readOnly: boolean }) {
  const close = useCloseApproval();
  const closable = staff && !readOnly && (approval.status === 'pending' || (approval.status === 'rejected' && !approval.closedAt));
  return (
    <li className="rounded-lg border border-slate-200 p-3 sm:p-4 dark:border-slate-700">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 className="font-semibold break-words">{approval.subjectTitle}</h4>
          <p className="text-xs break-words text-slate-600 dark:text-slate-300">{approval.subjectVersion}</p>
        </div>
        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_CLASS[approval.status]}`}>{STATUS_TEXT[approval.status]}</span>
      </div>
      <dl className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline font-medium text-slate-700 dark:text-slate-200">Due: </dt>
          <dd className="inline">
            {formatDay(approval.dueOn)}
            {approval.overdue ? <strong className="ml-2 rounded bg-red-700 px-1.5 py-0.5 text-xs text-white dark:bg-red-300 dark:text-slate-950">Overdue</strong> : null}
          </dd>
        </div>
        <div>
          <dt className="inline font-medium text-slate-700 dark:text-slate-200">Asked by: </dt>
          <dd className="inline">{approval.requestedByName}</dd>
        </div>
        {approval.note ? (
          <div className="sm:col-span-2">
            <dt className="inline font-medium text-slate-700 dark:text-slate-200">Note: </dt>
            <dd className="inline whitespace-pre-line">{approval.note}</dd>
          </div>
        ) : null}
        {approval.decidedAt ? (
          <div className="sm:col-span-2">
            <dt className="inline font-medium text-slate-700 dark:text-slate-200">Decided: </dt>
            <dd className="inline">
              {approval.decidedByName}, {formatDateTime(approval.decidedAt)}
              {approval.decisionComment ? <span className="block whitespace-pre-line">“{approval.decisionComment}”</span> : null}
            </dd>
          </div>
        ) : null}
      </dl>
      <div className="mt-2 flex flex-wrap gap-2">
        {approval.certificateUrl ? (
          <a href={approval.certificateUrl} download className={buttonClass('secondary')} aria-label={`Download the certificate of the decision on ${approval.subjectTitle}`}>
            <Download className="size-4" aria-hidden="true" />
            Certificate
          </a>
        ) : null}
        {closable ? (
          <button type="button" className={buttonClass('ghost')} disabled={close.isPending} onClick={() => close.mutate(approval._id, { onError: (err) => toastFailure('Failed to close the request', err) })}>
            {approval.status === 'pending' ? 'Withdraw request' : 'Mark as followed up'}
          </button>
        ) : null}
      </div>
      {canDecide && approval.status === 'pending' ? <DecisionForm approval={approval} /> : null}
    </li>
  );
}

/**
 * Staff ask the client to approve one of the project's subjects (a report, a completed milestone),
 * with a due date and a note. `preset` chooses the subject (the button beside a report).
 */
export function AskApprovalButton({ projectId, preset, label = 'Ask for approval', ariaLabel }: { projectId: string; preset?: string; label?: string; ariaLabel?: string }) {
  const [open, setOpen] = useState(false);
  const subjects = useApprovalSubjects(projectId, open);
  const request = useRequestApproval();
  const [subject, setSubject] = useState(preset ?? '');
  const [dueOn, setDueOn] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const today = todayIso();
  function submit(e: React.FormEvent) {
    e.preventDefault();
    const chosen = subjects.data?.find((o) => o.value === subject);
    if (!chosen || !dueOn) {
      setError(!chosen ? 'Choose what to approve' : 'Choose a due date');
      return;
    }
    request.mutate(
      { subject: chosen.subject, dueOn, note },
      {
        onSuccess: () => {
          toast({ title: 'Approval requested', description: chosen.label });
          setOpen(false);
          setNote('');
        },
        onError: (err) => setError(err instanceof Error ? err.message : 'Failed to ask for approval'),
      },
    );
  }
  return (
    <>
      <button type="button" className={buttonClass('secondary')} aria-label={ariaLabel} onClick={() => (setError(null), setSubject(preset ?? ''), setOpen(true))}>
        {label}
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title="Ask for approval" description="The client's approvers are e-mailed and reminded two days before the due date and on the day.">
        <form onSubmit={submit} className="grid gap-3" noValidate>
          <FormError message={error} />
          {subjects.isPending ? (
            <InlineLoading label="Loading reports and milestones..." />
          ) : (
            <SelectField
              id={`${id}-subject`}
              label="What to approve"
              required
              placeholder="Choose a document, report or completed milestone"
              options={subjects.data ?? []}
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
            />
          )}
          <InputField id={`${id}-due`} label="Due date" required type="date" min={today} value={dueOn} onChange={(e) => setDueOn(e.target.value)} />
          <TextAreaField id={`${id}-note`} label="Note to the client" value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} />
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonClass('ghost')} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="submit" className={buttonClass('primary')} disabled={request.isPending}>
              Send request
            </button>
          </div>
        </form>
      </ModalDialog>
    </>
  );
}

/** A project's approvals: the client decides here; staff ask, follow up and download certificates. */
export function ProjectApprovals({ projectId, side, canDecide = false, readOnly = false }: { projectId: string; side: 'client' | 'staff'; canDecide?: boolean; readOnly?: boolean }) {
  const approvals = useProjectApprovals(projectId);
  const list = approvals.data?.approvals ?? [];
  return (
    <section id="approvals" aria-labelledby="approvals-heading" className={panelClass}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 id="approvals-heading" className="text-lg font-semibold">
          Approvals
        </h3>
        {side === 'staff' && !readOnly ? <AskApprovalButton projectId={projectId} /> : null}
      </div>
      {approvals.isPending ? (
        <InlineLoading label="Loading approvals..." />
      ) : approvals.isError ? (
        <ErrorState title="Failed to load approvals" error={approvals.error} onRetry={() => void approvals.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState icon={<CheckCircle2 className="size-8" aria-hidden="true" />} title="No approvals yet" description={side === 'client' ? 'Requests from the team to approve documents, reports and milestones appear here.' : 'Ask the client to approve a document version, a report or a completed milestone.'} />
      ) : (
        <ul className="grid gap-3" aria-label="Approval requests">
          {list.map((a) => (
            <ApprovalCard key={a._id} approval={a} canDecide={side === 'client' && canDecide} staff={side === 'staff'} readOnly={readOnly} />
          ))}
        </ul>
      )}
    </section>
  );
}
