import { useState, type FormEvent } from 'react';
import { todayIso } from '../../../common/dates.ts';
import { formatKobo, koboToDecimal } from '../../../common/money.ts';
import type { Invoice, Payment } from '../../../common/schemas/invoices.ts';
import { buttonClass } from '../../components/button-class.ts';
import { InputField, SelectField, TextAreaField } from '../../components/forms/fields.tsx';
import { FormError } from '../../components/forms/form-error.tsx';
import { DialogFormActions, ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { ApiRequestError } from '../../lib/api.ts';
import { useFinanceAction } from './finance-api.ts';
import { invoiceName, kobo, requestErrors } from './finance-format.ts';

type DialogProps = { projectId: string; invoice: Invoice; open: boolean; onClose: () => void };

const METHOD_OPTIONS = [
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'cheque', label: 'Cheque' },
  { value: 'cash', label: 'Cash' },
] as const;

/** Staff record a transfer, cheque or cash received against an issued invoice. */
export function RecordPaymentDialog({ projectId, invoice, open, onClose }: DialogProps) {
  const action = useFinanceAction(projectId);
  const [v, setV] = useState({ amount: '', receivedOn: todayIso(), method: 'bank_transfer' as 'bank_transfer' | 'cheque' | 'cash', reference: '', note: '' });
  const { fields, message } = requestErrors(action.error);
  // 'More than the outstanding amount' (409) belongs at the amount.
  const conflict = action.error instanceof ApiRequestError && action.error.status === 409 ? action.error.message : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    action.mutate(
      { kind: 'pay', id: invoice._id, body: v },
      {
        onSuccess: () => {
          toast({ title: 'Payment recorded', description: `${invoiceName(invoice)}: a receipt is on its way to the client.` });
          onClose();
        },
      },
    );
  };
  return (
    <ModalDialog open={open} onClose={onClose} title={`Record payment on ${invoiceName(invoice)}`} description={`Outstanding: ${formatKobo(invoice.outstandingKobo)}`}>
      <form onSubmit={submit} noValidate className="grid gap-3">
        <InputField label="Amount (NGN)" required inputMode="decimal" placeholder={koboToDecimal(invoice.outstandingKobo)} value={v.amount} error={conflict ?? fields.amount} onChange={(e) => setV({ ...v, amount: e.target.value })} />
        <div className="grid gap-3 sm:grid-cols-2">
          <InputField label="Received on" required type="date" value={v.receivedOn} error={fields.receivedOn} onChange={(e) => setV({ ...v, receivedOn: e.target.value })} />
          <SelectField label="Method" value={v.method} options={METHOD_OPTIONS} onChange={(e) => setV({ ...v, method: e.target.value as typeof v.method })} />
        </div>
        <InputField label="Reference" value={v.reference} maxLength={200} error={fields.reference} onChange={(e) => setV({ ...v, reference: e.target.value })} />
        <TextAreaField label="Note" rows={2} value={v.note} error={fields.note} onChange={(e) => setV({ ...v, note: e.target.value })} />
        <FormError message={conflict || Object.keys(fields).length ? null : message} />
        <DialogFormActions onCancel={onClose} busy={action.isPending} submitLabel="Record payment" busyLabel="Recording..." />
      </form>
    </ModalDialog>
  );
}

/** Staff void a payment recorded in error; the reason is kept and shown. */
export function VoidPaymentDialog({ projectId, invoice, payment, open, onClose }: DialogProps & { payment: Payment }) {
  const action = useFinanceAction(projectId);
  const [reason, setReason] = useState('');
  const { fields, message } = requestErrors(action.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    action.mutate({ kind: 'void', paymentId: payment._id, body: { reason } }, { onSuccess: onClose });
  };
  return (
    <ModalDialog open={open} onClose={onClose} title={`Void payment of ${formatKobo(payment.amountKobo)}`} description={`On ${invoiceName(invoice)}, received ${payment.receivedOn}. The payment stays listed, struck through, with the reason.`}>
      <form onSubmit={submit} noValidate className="grid gap-3">
        <TextAreaField label="Reason" required rows={2} value={reason} error={fields.reason} onChange={(e) => setReason(e.target.value)} />
        <FormError message={fields.reason ? null : message} />
        <DialogFormActions onCancel={onClose} busy={action.isPending} submitLabel="Void payment" busyLabel="Voiding..." />
      </form>
    </ModalDialog>
  );
}

/** Staff credit an issued invoice line by line, each up to what is left of it. */
export function CreditNoteDialog({ projectId, invoice, open, onClose }: DialogProps) {
  const action = useFinanceAction(projectId);
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [reason, setReason] = useState('');
  const { fields, message } = requestErrors(action.error);
  const creditable = invoice.lines.filter((l) => kobo(l.remainingNetKobo) > 0n);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const lines = creditable.filter((l) => (amounts[l._id] ?? '').trim()).map((l) => ({ invoiceLineId: l._id, amount: amounts[l._id]! }));
    action.mutate(
      { kind: 'credit', id: invoice._id, body: { reason, lines } },
      {
        onSuccess: () => {
          toast({ title: 'Credit note issued', description: `Against ${invoiceName(invoice)}.` });
          onClose();
        },
      },
    );
  };
  return (
    <ModalDialog open={open} onClose={onClose} title={`Credit note against ${invoiceName(invoice)}`} description="Enter the net amount to credit on each line (VAT follows the line's rate)." size="lg">
      <form onSubmit={submit} noValidate className="grid gap-3">
        {creditable.map((l) => {
          const i = invoice.lines.indexOf(l);
          return (
            <InputField
              key={l._id}
              label={`Credit for "${l.description}" (NGN)`}
              hint={`Up to ${formatKobo(l.remainingNetKobo)}`}
              inputMode="decimal"
              value={amounts[l._id] ?? ''}
              error={fields[`lines.${i}.amount`]}
              onChange={(e) => setAmounts({ ...amounts, [l._id]: e.target.value })}
            />
          );
        })}
        <TextAreaField label="Reason" required rows={2} value={reason} error={fields.reason} onChange={(e) => setReason(e.target.value)} />
        <FormError message={fields.reason ? null : message} />
        <DialogFormActions onCancel={onClose} busy={action.isPending} submitLabel="Issue credit note" busyLabel="Issuing..." />
      </form>
    </ModalDialog>
  );
}

interface LineDraft {
  key: string;
  description: string;
  quantity: string;
  unitPrice: string;
  vatable: boolean;
}

/** Staff correct a draft: its lines, notes and due date. */
export function EditDraftDialog({ projectId, invoice, open, onClose }: DialogProps) {
  const action = useFinanceAction(projectId);
  const [lines, setLines] = useState<LineDraft[]>(() =>
    invoice.lines.map((l) => ({ key: l._id, description: l.description, quantity: String(l.quantity), unitPrice: koboToDecimal(l.unitPriceKobo), vatable: l.vatRateBp > 0 })),
  );
  const [notes, setNotes] = useState(invoice.notes);
  const [dueDate, setDueDate] = useState(invoice.dueDate ?? '');
  const { fields, message } = requestErrors(action.error);
  const setLine = (i: number, patch: Partial<LineDraft>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    action.mutate(
      {
        kind: 'update',
        id: invoice._id,
        body: { lines: lines.map((l) => ({ description: l.description, quantity: Number(l.quantity), unitPrice: l.unitPrice, vatable: l.vatable })), notes, dueDate: dueDate || null },
      },
      {
        onSuccess: () => {
          toast({ title: 'Draft saved' });
          onClose();
        },
      },
    );
  };
  return (
    <ModalDialog open={open} onClose={onClose} title="Edit draft invoice" description={invoice.milestoneName ? `Milestone: ${invoice.milestoneName}` : undefined} size="lg">
      <form onSubmit={submit} noValidate className="grid gap-3">
        <ol className="grid gap-3">
          {lines.map((l, i) => (
            <li key={l.key}>
              <fieldset className="grid gap-2 rounded-md border border-slate-300 p-3 dark:border-slate-600">
                <legend className="px-1 text-sm font-semibold">Line {i + 1}</legend>
                <TextAreaField label="Description" required rows={2} value={l.description} error={fields[`lines.${i}.description`]} onChange={(e) => setLine(i, { description: e.target.value })} />
                <div className="grid gap-2 sm:grid-cols-2">
                  <InputField label="Quantity" required type="number" min={1} step={1} value={l.quantity} error={fields[`lines.${i}.quantity`]} onChange={(e) => setLine(i, { quantity: e.target.value })} />
                  <InputField label="Unit price (NGN)" required inputMode="decimal" value={l.unitPrice} error={fields[`lines.${i}.unitPrice`]} onChange={(e) => setLine(i, { unitPrice: e.target.value })} />
                </div>
                <label className="flex min-h-11 items-center gap-2 text-sm">
                  <input type="checkbox" className="size-5" checked={l.vatable} onChange={(e) => setLine(i, { vatable: e.target.checked })} />
                  VAT applies
                </label>
                <div>
                  <button type="button" className={buttonClass('danger')} disabled={lines.length === 1} onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))} aria-label={`Remove line ${i + 1}`}>
                    Remove line
                  </button>
                </div>
              </fieldset>
            </li>
          ))}
        </ol>
        <div>
          <button type="button" className={buttonClass('secondary')} onClick={() => setLines((ls) => [...ls, { key: `new-${ls.length}-${Date.now()}`, description: '', quantity: '1', unitPrice: '', vatable: true }])}>
            Add line
          </button>
        </div>
        <TextAreaField label="Notes" rows={2} value={notes} error={fields.notes} onChange={(e) => setNotes(e.target.value)} />
        <InputField label="Due date" type="date" hint="Empty: the issue date plus the payment terms" value={dueDate} error={fields.dueDate} onChange={(e) => setDueDate(e.target.value)} />
        <FormError message={Object.keys(fields).length ? (fields.lines ?? null) : message} />
        <DialogFormActions onCancel={onClose} busy={action.isPending} submitLabel="Save draft" busyLabel="Saving..." />
      </form>
    </ModalDialog>
  );
}
