import { useState } from 'react';
import { clsx } from 'clsx';
import { CreditCard, Download } from 'lucide-react';
import { formatDate, formatDay } from '../../../common/dates.ts';
import { formatBp } from '../../../common/schemas/invoices.ts';
import { formatKobo } from '../../../common/money.ts';
import { PAYMENT_METHOD_LABELS, type Invoice, type Payment, type ProjectFinance } from '../../../common/schemas/invoices.ts';
import { buttonClass } from '../../components/button-class.ts';
import { StatusLabel } from '../../components/ui/status-badge.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useFinanceAction, usePayOnline } from './finance-api.ts';
import { INVOICE_LOOKS, invoiceName, kobo, linkClass, moneyCell } from './finance-format.ts';
import { CreditNoteDialog, EditDraftDialog, RecordPaymentDialog, VoidPaymentDialog } from './invoice-dialogs.tsx';
import { ConfirmDialog } from '../../components/portal/confirm-dialog.tsx';

/** Where a client returning from Paystack finds what it was paying (the 'being confirmed' message). */
export const PAYING_KEY = 'finance-paying';

function Figures({ invoice }: { invoice: Invoice }) {
  const rows: Array<[string, string, string?]> = [
    ['Total', formatKobo(invoice.grossKobo)],
    ...(kobo(invoice.creditedKobo) > 0n ? ([['Credited', formatKobo(invoice.creditedKobo)]] as Array<[string, string]>) : []),
    ['Paid', formatKobo(invoice.paidKobo)],
    ['Outstanding', formatKobo(invoice.outstandingKobo), 'invoice-outstanding'],
  ];
  return (
    <dl className="mt-2 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
      {rows.map(([label, value, testId]) => (
        <div key={label}>
          <dt className="font-medium text-slate-700 dark:text-slate-200">{label}</dt>
          <dd className="font-semibold tabular-nums" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function LinesTable({ invoice }: { invoice: Invoice }) {
  const name = invoiceName(invoice);
  return (
    <div className="mt-3 overflow-x-auto" role="region" aria-label={`Lines of ${name}`} tabIndex={0}>
      <table className="table-stack w-full text-left text-sm">
        <caption className="sr-only">Lines of {name}</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-600">
            <th scope="col" className="py-1 pr-3">Description</th>
            <th scope="col" className="py-1 pr-3 text-right">Qty</th>
            <th scope="col" className="py-1 pr-3 text-right">Unit price</th>
            <th scope="col" className="py-1 pr-3 text-right">VAT</th>
            <th scope="col" className="py-1 text-right">Net</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((l) => (
            <tr key={l._id} className="border-b border-slate-200 align-top dark:border-slate-700">
              <td data-label="Description" className="py-1 pr-3 whitespace-pre-line">{l.description}</td>
              <td data-label="Quantity" className={clsx(moneyCell, 'py-1 pr-3')}>{l.quantity}</td>
              <td data-label="Unit price" className={clsx(moneyCell, 'py-1 pr-3')}>{formatKobo(l.unitPriceKobo)}</td>
              <td data-label="VAT" className={clsx(moneyCell, 'py-1 pr-3')}>
                {l.vatRateBp > 0 ? (
                  <>
                    {formatKobo(l.vatKobo)} <span className="block text-xs text-slate-700 dark:text-slate-300">at {formatBp(l.vatRateBp)}</span>
                  </>
                ) : (
                  'Exempt'
                )}
              </td>
              <td data-label="Net" className={clsx(moneyCell, 'py-1')}>{formatKobo(l.netKobo)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PaymentsList({ invoice, projectId, canWrite }: { invoice: Invoice; projectId: string; canWrite: boolean }) {
  const [voiding, setVoiding] = useState<Payment | null>(null);
  if (invoice.payments.length === 0) return null;
  return (
    <div className="mt-3">
      <h5 className="text-sm font-semibold">Payments</h5>
      <ul className="mt-1 grid gap-2 text-sm" aria-label={`Payments on ${invoiceName(invoice)}`}>
        {invoice.payments.map((p) => (
          <li key={p._id} className="rounded-md border border-slate-200 p-2 dark:border-slate-700" data-testid="payment">
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <span className={clsx(p.voided && 'line-through')}>
                {formatDay(p.receivedOn)}, {PAYMENT_METHOD_LABELS[p.method]}
                {p.reference ? `, ref. ${p.reference}` : ''}: <span className="font-semibold tabular-nums">{formatKobo(p.amountKobo)}</span>
              </span>
              {!p.voided ? (
                <a href={p.receiptUrl} download className={linkClass}>
                  Receipt (PDF)<span className="sr-only"> for {formatKobo(p.amountKobo)} received {formatDay(p.receivedOn)}</span>
                </a>
              ) : null}
            </div>
            {p.voided ? <p className="mt-1 font-medium text-red-800 dark:text-red-300">Voided: {p.voidReason}</p> : null}
            {p.note && !p.voided ? <p className="mt-1 text-slate-700 dark:text-slate-300">{p.note}</p> : null}
            {canWrite && !p.voided && p.method !== 'paystack' ? (
              <button type="button" className={clsx(buttonClass('ghost'), 'mt-1')} onClick={() => setVoiding(p)} aria-label={`Void the payment of ${formatKobo(p.amountKobo)} received ${formatDay(p.receivedOn)}`}>
                Void
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {voiding ? <VoidPaymentDialog projectId={projectId} invoice={invoice} payment={voiding} open onClose={() => setVoiding(null)} /> : null}
    </div>
  );
}

function CreditNotesList({ invoice }: { invoice: Invoice }) {
  if (invoice.creditNotes.length === 0) return null;
  return (
    <div className="mt-3">
      <h5 className="text-sm font-semibold">Credit notes</h5>
      <ul className="mt-1 grid gap-1 text-sm">
        {invoice.creditNotes.map((c) => (
          <li key={c._id} className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span>
              {c.number}, {formatDay(c.issueDate)}: <span className="font-semibold tabular-nums">{formatKobo(c.grossKobo)}</span> ({c.reason})
            </span>
            <a href={c.pdfUrl} download className={linkClass}>
              Download credit note {c.number} (PDF)
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The client's way to pay: the bank details with the invoice number as the reference, or Paystack. */
function HowToPay({ invoice, finance }: { invoice: Invoice; finance: ProjectFinance }) {
  const payOnline = usePayOnline();
  const { bank } = finance;
  const hasBank = Boolean(bank.accountNumber);
  return (
    <section className="mt-3 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm dark:border-sky-800 dark:bg-sky-950" aria-label={`How to pay ${invoiceName(invoice)}`}>
      <h5 className="font-semibold">How to pay</h5>
      {hasBank ? (
        <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-3" data-testid="bank-details">
          <div>
            <dt className="text-slate-700 dark:text-slate-300">Bank</dt>
            <dd className="font-medium">{bank.bankName}</dd>
          </div>
          <div>
            <dt className="text-slate-700 dark:text-slate-300">Account name</dt>
            <dd className="font-medium">{bank.accountName}</dd>
          </div>
          <div>
            <dt className="text-slate-700 dark:text-slate-300">Account number</dt>
            <dd className="font-medium tabular-nums">{bank.accountNumber}</dd>
          </div>
        </dl>
      ) : null}
      {hasBank ? <p className="mt-2">Quote {invoice.number} as the reference.</p> : null}
      {finance.payOnline ? (
        <div className="mt-2">
          <button
            type="button"
            className={buttonClass('primary')}
            disabled={payOnline.isPending}
            onClick={() =>
              payOnline.mutate(invoice._id, {
                onSuccess: ({ authorizationUrl }) => {
                  try {
                    sessionStorage.setItem(PAYING_KEY, JSON.stringify({ invoiceId: invoice._id, outstandingKobo: invoice.outstandingKobo }));
                  } catch {
                    // Private windows may refuse storage; the message then waits for the project's total.
                  }
                  window.location.assign(authorizationUrl);
                },
                onError: (err) => toast({ title: 'Failed to open the online payment', description: err.message, variant: 'destructive' }),
              })
            }
          >
            <CreditCard className="size-4" aria-hidden="true" />
            {payOnline.isPending ? 'Opening Paystack...' : `Pay ${formatKobo(invoice.outstandingKobo)} online`}
          </button>
        </div>
      ) : null}
    </section>
  );
}

/** One invoice: its figures, lines, credit notes and payments; staff's steps on it by its state. */
export function InvoiceCard({ invoice, finance, staff, canWrite, highlighted }: { invoice: Invoice; finance: ProjectFinance; staff: boolean; canWrite: boolean; highlighted: boolean }) {
  const projectId = finance.projectId;
  const action = useFinanceAction(projectId);
  const [dialog, setDialog] = useState<null | 'edit' | 'delete' | 'issue' | 'pay' | 'credit'>(null);
  const close = () => {
    setDialog(null);
    action.reset();
  };
  const name = invoiceName(invoice);
  const headingId = `invoice-${invoice._id}-heading`;
  const draft = invoice.status === 'draft';
  const outstanding = kobo(invoice.outstandingKobo) > 0n;
  const creditable = invoice.lines.some((l) => kobo(l.remainingNetKobo) > 0n);
  return (
    <article
      id={`invoice-${invoice._id}`}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="invoice"
      className={clsx(
        'scroll-mt-4 rounded-lg border p-3 focus:outline-none',
        invoice.status === 'overdue' ? 'border-l-8 border-red-700 dark:border-red-400' : 'border-slate-200 dark:border-slate-700',
        highlighted && 'ring-4 ring-amber-400 dark:ring-amber-300',
      )}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h4 id={headingId} className="font-semibold">
          {invoice.number ? `Invoice ${invoice.number}` : name}
          {invoice.number && invoice.milestoneName ? <span className="font-normal">: {invoice.milestoneName}</span> : null}
        </h4>
        <StatusLabel look={INVOICE_LOOKS[invoice.status]} />
      </div>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {invoice.issueDate ? `Issued ${formatDay(invoice.issueDate)}` : `Drafted ${formatDate(invoice.createdAt)}`}
        {invoice.dueDate ? `; due ${formatDay(invoice.dueDate)}` : ''}
      </p>
      <Figures invoice={invoice} />
      <LinesTable invoice={invoice} />
      {invoice.notes ? <p className="mt-2 text-sm whitespace-pre-line">{invoice.notes}</p> : null}
      <CreditNotesList invoice={invoice} />
      <PaymentsList invoice={invoice} projectId={projectId} canWrite={staff && canWrite} />
      {!staff && !draft && outstanding ? <HowToPay invoice={invoice} finance={finance} /> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {invoice.pdfUrl ? (
          <a href={invoice.pdfUrl} download className={buttonClass('secondary')}>
            <Download className="size-4" aria-hidden="true" />
            Download invoice {invoice.number} (PDF)
          </a>
        ) : null}
        {staff && canWrite && draft ? (
          <>
            <button type="button" className={buttonClass('secondary')} onClick={() => setDialog('edit')} aria-label={`Edit ${name}`}>
              Edit draft
            </button>
            <button type="button" className={buttonClass('danger')} onClick={() => setDialog('delete')} aria-label={`Delete ${name}`}>
              Delete
            </button>
            <button type="button" className={buttonClass('primary')} onClick={() => setDialog('issue')} aria-label={`Issue ${name}`}>
              Issue invoice
            </button>
          </>
        ) : null}
        {staff && canWrite && !draft ? (
          <>
            {outstanding ? (
              <button type="button" className={buttonClass('primary')} onClick={() => setDialog('pay')} aria-label={`Record payment on ${name}`}>
                Record payment
              </button>
            ) : null}
            {creditable ? (
              <button type="button" className={buttonClass('secondary')} onClick={() => setDialog('credit')} aria-label={`Credit note against ${name}`}>
                Credit note
              </button>
            ) : null}
          </>
        ) : null}
      </div>
      {dialog === 'edit' ? <EditDraftDialog projectId={projectId} invoice={invoice} open onClose={close} /> : null}
      {dialog === 'pay' ? <RecordPaymentDialog projectId={projectId} invoice={invoice} open onClose={close} /> : null}
      {dialog === 'credit' ? <CreditNoteDialog projectId={projectId} invoice={invoice} open onClose={close} /> : null}
      <ConfirmDialog
        open={dialog === 'delete'}
        onClose={close}
        title={`Delete ${name}?`}
        description="The draft goes for good; no number was used."
        confirmLabel="Delete draft"
        busyLabel="Deleting..."
        danger
        busy={action.isPending}
        error={action.error ? action.error.message : null}
        onConfirm={() => action.mutate({ kind: 'delete', id: invoice._id }, { onSuccess: () => { setDialog(null); toast({ title: 'Draft deleted' }); } })}
      />
      <ConfirmDialog
        open={dialog === 'issue'}
        onClose={close}
        title={`Issue ${name}?`}
        description={`It will be numbered, frozen and e-mailed to the client for ${formatKobo(invoice.grossKobo)}. After that it can only be corrected by a credit note.`}
        confirmLabel="Issue invoice"
        busyLabel="Issuing..."
        busy={action.isPending}
        error={action.error ? action.error.message : null}
        onConfirm={() => action.mutate({ kind: 'issue', id: invoice._id }, { onSuccess: () => { setDialog(null); toast({ title: 'Invoice issued', description: 'Numbered and e-mailed to the client.' }); } })}
      />
    </article>
  );
}
