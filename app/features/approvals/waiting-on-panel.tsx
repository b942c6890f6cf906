import { Hourglass } from 'lucide-react';
import { formatDay, formatDate } from '../../../common/dates.ts';
import type { WaitingItem } from '../../../common/schemas/approvals.ts';
import { buttonClass } from '../../components/button-class.ts';
import { ErrorState } from '../../components/portal/empty-state.tsx';
import { panelClass } from '../../components/portal/selected-project-panel.tsx';
import { useWaitingOn } from './approvals-api.ts';

const STATE_TEXT: Record<string, string> = {
  decide: 'Your approval is requested',
  'awaiting-client': 'Waiting for the client',
  rejected: 'Rejected by the client: follow up',
  draft: 'Draft change order: not sent yet',
};

/**
 * 'Waiting on you' (decision 293): what waits on this side, oldest first, overdue marked, each with
 * the action that opens it. Shown on both dashboards; approval events refresh it live.
 */
export function WaitingOnPanel({ onOpen, side }: { onOpen: (item: WaitingItem) => void; side: 'client' | 'staff' }) {
  const waiting = useWaitingOn();
  const items = waiting.data?.items ?? [];
  if (waiting.isError) return <ErrorState title="Failed to load what is waiting" error={waiting.error} onRetry={() => void waiting.refetch()} />;
  // Nothing waiting: the panel stays out of the way (the list appears when something arrives).
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="waiting-heading" className={panelClass}>
      <h2 id="waiting-heading" className="mb-2 flex items-center gap-2 text-lg font-semibold">
        <Hourglass className="size-5" aria-hidden="true" />
        Waiting on you <span className="text-sm font-normal text-slate-600 dark:text-slate-300">({items.length})</span>
      </h2>
      <ul className="grid gap-2" aria-label="Waiting on you">
        {items.map((item) => (
          <li key={`${item.kind}-${item.id}`} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
            <div className="min-w-0">
              <p className="font-semibold break-words">{item.title}</p>
              <p className="text-sm break-words text-slate-700 dark:text-slate-200">
                {item.projectName} · {STATE_TEXT[item.state] ?? item.state} · since {formatDate(item.since)}
              </p>
              {item.dueOn ? (
                <p className="text-sm">
                  Due {formatDay(item.dueOn)}
                  {item.overdue ? <strong className="ml-2 rounded bg-red-700 px-1.5 py-0.5 text-xs text-white dark:bg-red-300 dark:text-slate-950">Overdue</strong> : null}
                </p>
              ) : null}
              {item.state === 'rejected' && item.comment ? <p className="text-sm whitespace-pre-line">“{item.comment}”</p> : null}
            </div>
            <button type="button" className={buttonClass(side === 'client' ? 'primary' : 'secondary')} onClick={() => onOpen(item)} aria-label={`${side === 'client' ? 'Review' : 'Open'}: ${item.title}, ${item.projectName}`}>
              {side === 'client' ? 'Review' : 'Open'}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
