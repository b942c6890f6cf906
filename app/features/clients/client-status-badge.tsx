import { clsx } from 'clsx';
import { CircleDashed, CircleCheck, Loader } from 'lucide-react';
import type { ClientStatus } from '../../../common/schemas/clients.ts';

const CLIENT_STATUS_LABELS: Record<ClientStatus, string> = {
  new: 'New',
  'in-progress': 'In progress',
  completed: 'Completed',
};

const STYLES: Record<ClientStatus, string> = {
  new: 'border-sky-700 bg-sky-50 text-sky-900 dark:border-sky-300 dark:bg-sky-950 dark:text-sky-100',
  'in-progress': 'border-amber-700 bg-amber-50 text-amber-900 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-100',
  completed: 'border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-300 dark:bg-emerald-950 dark:text-emerald-100',
};

const ICONS = { new: CircleDashed, 'in-progress': Loader, completed: CircleCheck } as const;

/** A client's status as a button that moves it to the next status. Icon and text, not colour alone. */
export function ClientStatusBadge({
  status,
  clientName,
  onCycle,
  busy,
}: {
  status: ClientStatus;
  clientName: string;
  /** Without it (an archived, read-only client) the status is shown, not offered to change. */
  onCycle?: () => void;
  busy?: boolean;
}) {
  const Icon = ICONS[status];
  const badgeClass = clsx('inline-flex min-h-8 shrink-0 items-center gap-1 rounded-full border px-2.5 py-1 text-xs font-semibold disabled:opacity-60', STYLES[status]);
  if (!onCycle) {
    return (
      <span className={badgeClass}>
        <Icon className="size-3.5" aria-hidden="true" />
        {CLIENT_STATUS_LABELS[status]}
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={onCycle}
      disabled={busy}
      aria-label={`${CLIENT_STATUS_LABELS[status]}: change status of ${clientName}`}
      className={badgeClass}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {CLIENT_STATUS_LABELS[status]}
    </button>
  );
}
