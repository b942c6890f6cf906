import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { clsx } from 'clsx';
import { AlertTriangle, CheckCircle2, ReceiptText, Wallet } from 'lucide-react';
import { formatDay } from '../../../common/dates.ts';
import { formatKobo } from '../../../common/money.ts';
import { formatBp, type Milestone, type ProjectFinance } from '../../../common/schemas/invoices.ts';
import { buttonClass } from '../../components/button-class.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { useFinanceAction, useProjectFinance } from './finance-api.ts';
import { kobo, moneyCell, planBalanceWarning } from './finance-format.ts';
import { InvoiceCard, PAYING_KEY } from './invoice-card.tsx';
import { PlanEditor } from './plan-editor.tsx';

function Summary({ finance }: { finance: ProjectFinance }) {
  const s = finance.summary;
  const warning = planBalanceWarning(s.planBalanceKobo);
  const items: Array<[string, string, string]> = [
    ['Contract sum', s.contractSumKobo, 'finance-contract-sum'],
    ['Planned', s.plannedKobo, 'finance-planned'],
    ['Invoiced', s.invoicedKobo, 'finance-invoiced'],
    ['Paid', s.paidKobo, 'finance-paid'],
    ['Outstanding', s.outstandingKobo, 'finance-outstanding'],
  ];
  return (
    <div>
      <dl className="flex flex-wrap gap-2">
        {items.map(([label, value, testId]) => (
          <div key={label} className="min-w-[9.5rem] flex-1 rounded-md bg-slate-50 p-2 dark:bg-slate-800">
            <dt className="text-xs font-medium text-slate-700 dark:text-slate-300">{label}</dt>
            <dd className="font-semibold tabular-nums break-words" data-testid={testId}>
              {formatKobo(value)}
            </dd>
          </div>
        ))}
      </dl>
      {warning ? (
        <p className="mt-2 flex items-start gap-2 rounded-md border border-amber-400 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100" data-testid="plan-warning">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>
            <span className="sr-only">Warning: </span>
            {warning}
          </span>
        </p>
      ) : null}
    </div>
  );
}

function DependsOn({ m }: { m: Milestone }) {
  if (m.dependsOn.length === 0) return <span className="text-slate-600 dark:text-slate-400">None</span>;
  return (
    <ul className="grid gap-0.5">
      {m.dependsOn.map((d) => (
        <li key={`${d.timelineId}-${d.task}`} className={clsx(!d.onTimeline && 'text-slate-600 dark:text-slate-400')}>
          {d.done ? <CheckCircle2 className="mr-1 inline size-3.5 text-emerald-700 dark:text-emerald-300" aria-hidden="true" /> : null}
          {d.task}
          {d.timelineTitle ? <span className="text-slate-600 dark:text-slate-400"> ({d.timelineTitle})</span> : null}
          {d.done ? <span className="font-medium"> (done)</span> : null}
          {!d.onTimeline ? <em> (no longer on the timeline)</em> : null}
        </li>
      ))}
    </ul>
  );
}

function MilestonesTable({ finance, canWrite }: { finance: ProjectFinance; canWrite: boolean }) {
  const action = useFinanceAction(finance.projectId);
  const [raising, setRaising] = useState<string | null>(null);
  const raise = (m: Milestone) => {
    setRaising(m._id);
    action.mutate(
      { kind: 'create', body: { milestoneId: m._id } },
      {
        onSuccess: () => toast({ title: 'Draft invoice created', description: `For ${m.name}: check it, then issue it.` }),
        onError: (err) => toast({ title: 'Failed to draft the invoice', description: err.message, variant: 'destructive' }),
        onSettled: () => setRaising(null),
      },
    );
  };
  return (
    <div className="overflow-x-auto" role="region" aria-label="Milestones table" tabIndex={0}>
      <table className="table-stack w-full text-left text-sm">
        <caption className="sr-only">Payment plan milestones</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-600">
            <th scope="col" className="py-2 pr-3">Milestone</th>
            <th scope="col" className="py-2 pr-3 text-right">Amount</th>
            <th scope="col" className="py-2 pr-3">Due</th>
            <th scope="col" className="py-2 pr-3">Depends on</th>
            <th scope="col" className="py-2 pr-3 text-right">Invoiced so far</th>
          </tr>
        </thead>
        <tbody>
          {finance.milestones.map((m) => (
            <tr key={m._id} className="border-b border-slate-200 align-top dark:border-slate-700" data-testid="milestone">
              <td data-label="Milestone" className="py-2 pr-3">
                <span className="font-medium">{m.name}</span>
                {canWrite ? (
                  <div className="mt-1">
                    <button type="button" className={buttonClass('secondary')} disabled={raising !== null} onClick={() => raise(m)} aria-label={`Raise invoice for ${m.name}`}>
                      {raising === m._id ? 'Drafting...' : 'Raise invoice'}
                    </button>
                  </div>
                ) : null}
              </td>
              <td data-label="Amount" className="py-2 pr-3 text-right tabular-nums">
                {m.shareBp !== null ? (
                  <>
                    {formatBp(m.shareBp)} <span className="block whitespace-nowrap text-slate-700 dark:text-slate-300">{formatKobo(m.resolvedKobo)}</span>
                  </>
                ) : (
                  formatKobo(m.resolvedKobo)
                )}
              </td>
              <td data-label="Due" className="py-2 pr-3 whitespace-nowrap">{formatDay(m.dueDate, 'No date')}</td>
              <td data-label="Depends on" className="py-2 pr-3"><DependsOn m={m} /></td>
              <td data-label="Invoiced so far" className={clsx(moneyCell, 'py-2 pr-3')}>{formatKobo(m.invoicedKobo)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The invoice the address names (`#invoice-<id>`, from the mails): scrolled to, focused and marked. */
function useHashedInvoice(ready: boolean): string | null {
  const [hashed, setHashed] = useState<string | null>(null);
  useEffect(() => {
    if (!ready) return;
    const show = () => {
      const match = /^#invoice-([\w-]+)$/.exec(window.location.hash);
      if (!match) return;
      const element = document.getElementById(`invoice-${match[1]}`);
      if (!element) return;
      setHashed(match[1]!);
      element.scrollIntoView({ block: 'start' });
      element.focus({ preventScroll: true });
    };
    show();
    window.addEventListener('hashchange', show);
    return () => window.removeEventListener('hashchange', show);
  }, [ready]);
  return hashed;
}

/**
 * Back from Paystack (`?paid=<reference>`): 'being confirmed' until the invoice paid for (or, not
 * knowing it, the project's total) owes less than when the client left, then 'confirmed'.
 */
function usePaymentConfirmation(finance: ProjectFinance | undefined): string | null {
  const [params] = useSearchParams();
  const paid = params.get('paid');
  const [before, setBefore] = useState<{ invoiceId: string | null; outstandingKobo: string } | null>(null);
  useEffect(() => {
    if (!paid || !finance || before) return;
    let stored: { invoiceId: string; outstandingKobo: string } | null = null;
    try {
      stored = JSON.parse(sessionStorage.getItem(PAYING_KEY) ?? 'null') as typeof stored;
    } catch {
      stored = null;
    }
    setBefore(stored ?? { invoiceId: null, outstandingKobo: finance.summary.outstandingKobo });
  }, [paid, finance, before]);
  if (!paid || !finance || !before) return null;
  const now = before.invoiceId ? finance.invoices.find((i) => i._id === before.invoiceId)?.outstandingKobo : finance.summary.outstandingKobo;
  const confirmed = now !== undefined && kobo(now) < kobo(before.outstandingKobo);
  return confirmed ? 'Thank you: your payment is confirmed.' : 'Thank you: your payment is being confirmed.';
}

/**
 * A project's payment plan and invoices (issue 26, decision 298): the balance, the milestones and the
 * invoices. Staff with finance.write edit the plan, raise, issue and credit invoices and record or
 * void payments; a client's finance people read the issued invoices, how to pay them, and pay online.
 */
export function FinancePanel({ projectId, staff = false, canWrite = false }: { projectId: string; staff?: boolean; canWrite?: boolean }) {
  const query = useProjectFinance(projectId);
  const [editing, setEditing] = useState(false);
  const finance = query.data;
  const hashed = useHashedInvoice(Boolean(finance));
  const confirmation = usePaymentConfirmation(finance);
  const write = staff && canWrite;

  return (
    <div className="grid gap-4">
      <p role="status" aria-live="polite" className={confirmation ? 'rounded-md border border-emerald-400 bg-emerald-50 p-3 text-sm font-medium text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100' : 'sr-only'}>
        {confirmation ?? ''}
      </p>
      {query.isPending ? (
        <InlineLoading label="Loading the payment plan..." />
      ) : query.isError ? (
        <ErrorState title="Failed to load the payment plan" error={query.error} onRetry={() => void query.refetch()} />
      ) : finance ? (
        <>
          <Summary finance={finance} />
          <section aria-labelledby={`${projectId}-plan-heading`} className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h4 id={`${projectId}-plan-heading`} className="font-semibold">
                Milestones
              </h4>
              {write && !editing ? (
                <button type="button" className={buttonClass('secondary')} onClick={() => setEditing(true)}>
                  Edit plan
                </button>
              ) : null}
            </div>
            {editing ? (
              <PlanEditor projectId={projectId} milestones={finance.milestones} onDone={() => setEditing(false)} />
            ) : finance.milestones.length === 0 ? (
              <EmptyState icon={<Wallet className="size-8" aria-hidden="true" />} title="No payment plan yet" description={staff ? 'Set out the milestones the client pays by.' : 'The milestones you pay by will appear here.'} />
            ) : (
              <MilestonesTable finance={finance} canWrite={write} />
            )}
          </section>
          <section aria-labelledby={`${projectId}-invoices-heading`} className="grid gap-3">
            <h4 id={`${projectId}-invoices-heading`} className="font-semibold">
              Invoices
            </h4>
            {finance.invoices.length === 0 ? (
              <EmptyState icon={<ReceiptText className="size-8" aria-hidden="true" />} title="No invoices yet" description={staff ? 'Raise one on a milestone.' : 'Invoices issued to you will appear here.'} />
            ) : (
              finance.invoices.map((inv) => <InvoiceCard key={inv._id} invoice={inv} finance={finance} staff={staff} canWrite={write} highlighted={hashed === inv._id} />)
            )}
          </section>
        </>
      ) : null}
    </div>
  );
}
