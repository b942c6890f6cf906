import { clsx } from 'clsx';
import type { LucideIcon } from 'lucide-react';

/** How one status looks: its words, its icon and its colours (never colour alone). */
export interface StatusLook {
  label: string;
  icon: LucideIcon;
  colours: string;
}

const PILL = 'inline-flex min-h-8 shrink-0 items-center gap-1 rounded-full border px-2.5 py-1 text-xs font-semibold';

function StatusContent({ look }: { look: StatusLook }) {
  const Icon = look.icon;
  return (
    <>
      <Icon className="size-3.5" aria-hidden="true" />
      {look.label}
    </>
  );
}

/** A status shown as a pill with icon and words. */
export function StatusLabel({ look }: { look: StatusLook }) {
  return (
    <span className={clsx(PILL, look.colours)}>
      <StatusContent look={look} />
    </span>
  );
}

/** A status as a button that moves the record (named for screen readers) to its next status. */
export function StatusButton({
  look,
  recordName,
  onCycle,
  busy,
  className,
}: {
  look: StatusLook;
  recordName: string;
  onCycle: () => void;
  busy?: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={onCycle}
      disabled={busy}
      aria-label={`${look.label}: change status of ${recordName}`}
      className={clsx(PILL, look.colours, className, 'disabled:opacity-60')}
    >
      <StatusContent look={look} />
    </button>
  );
}
