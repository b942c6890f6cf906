import { CircleDashed, CircleCheck, Loader } from 'lucide-react';
import type { ClientStatus } from '../../../common/schemas/clients.ts';
import { StatusButton, StatusLabel, type StatusLook } from '../../components/ui/status-badge.tsx';

const LOOKS: Record<ClientStatus, StatusLook> = {
  new: {
    label: 'New',
    icon: CircleDashed,
    colours: 'border-sky-700 bg-sky-50 text-sky-900 dark:border-sky-300 dark:bg-sky-950 dark:text-sky-100',
  },
  'in-progress': {
    label: 'In progress',
    icon: Loader,
    colours: 'border-amber-700 bg-amber-50 text-amber-900 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-100',
  },
  completed: {
    label: 'Completed',
    icon: CircleCheck,
    colours: 'border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-300 dark:bg-emerald-950 dark:text-emerald-100',
  },
};

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
  if (!onCycle) return <StatusLabel look={LOOKS[status]} />;
  return <StatusButton look={LOOKS[status]} recordName={clientName} onCycle={onCycle} busy={busy} />;
}
