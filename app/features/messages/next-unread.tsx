import { ArrowRight, MailCheck, Mail } from 'lucide-react';
import { buttonClass } from '../../components/button-class.ts';
import { useUnreadCounts } from './messages-api.ts';

/**
 * Staff's way through what clients wrote: how many messages wait in how many threads, and a button
 * that opens the thread waiting longest (the next one when that one is already open).
 */
export function NextUnread({
  currentProjectId,
  onOpen,
}: {
  currentProjectId: string | null;
  onOpen: (thread: { projectId: string; clientId: string }) => void;
}) {
  const { data } = useUnreadCounts();
  const threads = data?.threads ?? [];
  const next = threads.find((t) => t.projectId !== currentProjectId) ?? threads[0];
  return (
    <div className="flex min-h-11 flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-2 dark:border-slate-700 dark:bg-slate-900">
      {/* Announced as it changes, so a screen reader hears of new messages arriving live. */}
      <p role="status" className="flex items-center gap-2 text-sm">
        {data && data.total > 0 ? (
          <>
            <Mail className="size-5 shrink-0 text-red-700 dark:text-red-400" aria-hidden="true" />
            <span>
              <span className="font-bold tabular-nums">{data.total}</span> unread {data.total === 1 ? 'message' : 'messages'} from clients in{' '}
              {threads.length === 1 ? '1 project' : `${threads.length} projects`}
            </span>
          </>
        ) : (
          <>
            <MailCheck className="size-5 shrink-0 text-emerald-700 dark:text-emerald-300" aria-hidden="true" />
            <span>{data ? 'No unread messages from clients' : 'Checking for unread messages...'}</span>
          </>
        )}
      </p>
      {next ? (
        <button type="button" className={buttonClass('secondary')} onClick={() => onOpen(next)}>
          Next unread thread
          <ArrowRight className="size-4" aria-hidden="true" />
        </button>
      ) : null}
    </div>
  );
}
