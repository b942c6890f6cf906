import { useId, useState } from 'react';
import { ChevronDown, MessagesSquare } from 'lucide-react';
import { clsx } from 'clsx';
import { isUnreadFor, MESSAGE_TEXTS, replySubject, type Message } from '../../../common/schemas/messages.ts';
import { buttonClass } from '../../components/button-class.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { useLoadEarlierMessages, useMarkRead, useMarkThreadRead, useProjectMessages } from './messages-api.ts';
import { MessageComposer } from './message-composer.tsx';
import { MessageThread } from './message-thread.tsx';

/**
 * The collapsible 'Project Communication' section of both dashboards: the project's thread and the
 * composer. `onActivity` runs after this user sends or reads something (e.g. to refresh unread counts).
 */
export function ProjectCommunication({
  project,
  viewer,
  clientId,
  onActivity,
  readOnly: locked = false,
}: {
  /** An archived project's thread is read-only: no composer, no reply, edit or delete. */
  project: { _id: string; name: string; clientId: { _id: string; name: string }; archivedAt?: string | null };
  viewer: 'admin' | 'client';
  /** The selected client (staff view); the client view writes with the project's client, as the specification has it. */
  clientId?: string | null;
  onActivity?: () => void;
  /** Read-only for another reason (its client archived), as an archived project is. */
  readOnly?: boolean;
}) {
  const [open, setOpen] = useState(true);
  const panelId = useId();
  const messages = useProjectMessages(project._id);
  const markRead = useMarkRead(onActivity);
  const earlier = useLoadEarlierMessages(project._id);
  const markAll = useMarkThreadRead(project._id, onActivity);
  // Each Reply (even to the same message again) puts its subject in the composer.
  const [reply, setReply] = useState<{ subject: string; seq: number; projectId: string } | null>(null);
  const startReply = (m: Message) => setReply((r) => ({ subject: replySubject(m), seq: (r?.seq ?? 0) + 1, projectId: m.projectId }));
  // Loaded messages count as the screen shows them (marked read at once); older ones as the server counted them.
  const unread = (messages.data?.messages ?? []).filter((m) => isUnreadFor(m, viewer)).length + (messages.data?.olderUnread ?? 0);
  const receiverId = viewer === 'admin' ? (clientId ?? project.clientId._id) : project.clientId._id;
  const readOnly = Boolean(project.archivedAt) || locked;

  return (
    <section aria-labelledby={`${panelId}-heading`} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <h3 id={`${panelId}-heading`} className="text-lg font-semibold">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="flex min-h-11 w-full items-center gap-2 rounded-md text-left"
        >
          <MessagesSquare className="size-5 shrink-0" aria-hidden="true" />
          <span className="flex-1">{MESSAGE_TEXTS.sectionTitle}</span>
          {unread > 0 ? (
            <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">{unread} unread</span>
          ) : null}
          <ChevronDown className={clsx('size-5 shrink-0 transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </button>
      </h3>
      <div id={panelId} hidden={!open} className="mt-3">
        {unread > 0 ? (
          <div className="mb-2 flex justify-end">
            <button
              type="button"
              className={buttonClass('secondary')}
              disabled={markAll.isPending}
              onClick={() =>
                markAll.mutate(undefined, {
                  onSuccess: () => toast({ title: 'All messages marked as read' }),
                  onError: (err) => toastFailure('Failed to mark the messages as read', err),
                })
              }
            >
              {MESSAGE_TEXTS.markAllRead}
            </button>
          </div>
        ) : null}
        {messages.isPending ? (
          <InlineLoading label="Loading messages..." />
        ) : messages.isError ? (
          <ErrorState title="Failed to load messages" error={messages.error} onRetry={() => void messages.refetch()} />
        ) : (
          <MessageThread
            messages={messages.data.messages}
            hasEarlier={messages.data.hasMore}
            loadingEarlier={earlier.isPending}
            onShowEarlier={() => earlier.mutate(undefined, { onError: (err) => toastFailure('Failed to load messages', err) })}
            viewer={viewer}
            onMarkRead={(m) => markRead.mutate(m)}
            onReply={readOnly ? undefined : startReply}
            readOnly={readOnly}
          />
        )}
        {readOnly ? (
          <p className="mt-3 text-sm text-slate-700 dark:text-slate-200">This project is archived: its messages can be read, not added to.</p>
        ) : (
          <MessageComposer key={project._id} projectId={project._id} receiverId={receiverId} onSent={onActivity} reply={reply?.projectId === project._id ? reply : null} />
        )}
      </div>
    </section>
  );
}
