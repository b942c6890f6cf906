import { useState } from 'react';
import { FileDiff } from 'lucide-react';
import { formatDate, formatDay } from '../../../common/dates.ts';
import { formatKobo } from '../../../common/money.ts';
import { scheduleImpactLabel, type ChangeOrder, type ContractHistory } from '../../../common/schemas/change-orders.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { ChangeOrderCard } from './change-order-card.tsx';
import { ChangeOrderForm, EMPTY_CHANGE_ORDER_DRAFT } from './change-order-forms.tsx';
import { useChangeOrderAction, useChangeOrders } from './change-orders-api.ts';

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
              initial={EMPTY_CHANGE_ORDER_DRAFT}
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
