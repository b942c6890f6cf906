import { useId, useState, type FormEvent } from 'react';
import type { ChangeOrder } from '../../../common/schemas/change-orders.ts';
import { buttonClass } from '../../components/button-class.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';

type Draft = { title: string; description: string; cost: string; scheduleDays: string };

/** The new change order form's starting values. */
export const EMPTY_CHANGE_ORDER_DRAFT: Draft = { title: '', description: '', cost: '', scheduleDays: '0' };

/** Staff's form for a new change order or a draft's correction. */
export function ChangeOrderForm({ initial, busy, error, onSave, onCancel }: { initial: Draft; busy: boolean; error: string | null; onSave: (d: Draft) => void; onCancel?: () => void }) {
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
export function DecisionForm({ co, busy, error, onDecide }: { co: ChangeOrder; busy: boolean; error: string | null; onDecide: (decision: 'approve' | 'decline', comment: string) => void }) {
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
