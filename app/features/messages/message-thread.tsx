import { useLayoutEffect, useRef, useState } from 'react';
import { History } from 'lucide-react';
import { clsx } from 'clsx';
import { isUnreadFor, MESSAGE_TEXTS, type Message } from '../../../common/schemas/messages.ts';
import { buttonClass } from '../../components/button-class.ts';
import { MessageContent } from './message-content.tsx';
import { AttachmentPreviewDialog } from './attachment-preview-dialog.tsx';
import { formatDateTime } from '../../../common/dates.ts';
import { messageElementId, useMessageTarget } from './use-message-target.ts';

const SHOW_EARLIER_LABEL = 'Show earlier messages';

/**
 * The receipt under a message its viewer's side sent: staff see which people of the client read it
 * ('Read by Ada', 'Read by Ada and Bola', 'Read by Ada, Bola and 2 others'), a client 'Read' once
 * someone of the staff did (one company inbox, decision 281); otherwise 'Delivered'.
 */
function receipt(m: Message): string {
  if (!m.isRead) return 'Delivered';
  const names = m.readBy.map((p) => p.name);
  if (names.length === 0) return 'Read';
  if (names.length === 1) return `Read by ${names[0]}`;
  if (names.length === 2) return `Read by ${names[0]} and ${names[1]}`;
  const others = names.length - 2;
  return `Read by ${names[0]}, ${names[1]} and ${others} ${others === 1 ? 'other' : 'others'}`;
}

/** Who wrote a message, as the thread and screen readers say it: a staff member with the company. */
function authorOf(m: Message): string {
  return m.sender.organisation ? `${m.sender.name} of ${m.sender.organisation}` : m.sender.name;
}

/**
 * The thread: scrolls within about 24 rem and moves to the newest message when a new one arrives
 * at the bottom. When older messages exist, 'Show earlier messages' at the top loads the previous
 * page and puts it in front without moving what the reader sees. A message waiting for this
 * viewer is marked, and marked read when clicked (or with its button, from the keyboard).
 */
export function MessageThread({
  messages,
  hasEarlier = false,
  loadingEarlier = false,
  onShowEarlier,
  viewer,
  onMarkRead,
  onReply,
  readOnly = false,
}: {
  messages: Message[];
  /** Whether messages older than the first one shown exist. */
  hasEarlier?: boolean;
  loadingEarlier?: boolean;
  onShowEarlier?: () => void;
  viewer: 'admin' | 'client';
  onMarkRead: (message: Message) => void;
  /** Starts a reply to the other side's message in the composer. */
  onReply?: (message: Message) => void;
  /** An archived project's thread: its own messages are no longer editable. */
  readOnly?: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<{ attachments: Message['attachments']; index: number } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const newest = messages.at(-1)?._id;
  const oldest = messages[0]?._id;
  // What was on screen at the last change, to tell a new message at the bottom from a page in front.
  const shown = useRef<{ oldest?: string; newest?: string; count: number; height: number }>({ count: 0, height: 0 });
  // The scroll height when the reader asked for earlier messages (images may have grown it since).
  const askedAt = useRef<number | null>(null);

  useLayoutEffect(() => {
    const el = scroller.current;
    const before = shown.current;
    if (el) {
      if (newest !== before.newest) {
        el.scrollTop = el.scrollHeight;
      } else if (oldest !== before.oldest) {
        // Messages put in front push the content down by their height: the reader's place moves with it.
        // (The scroller opts out of the browser's own scroll anchoring so this is the only adjustment.)
        el.scrollTop += el.scrollHeight - (askedAt.current ?? before.height);
        if (askedAt.current !== null) {
          const added = messages.length - before.count;
          setAnnouncement(added === 1 ? '1 earlier message loaded' : `${added} earlier messages loaded`);
          // The button is gone when nothing older is left; keep the keyboard in the thread.
          if (!hasEarlier && (document.activeElement === document.body || document.activeElement === null)) el.focus({ preventScroll: true });
        }
        askedAt.current = null;
      }
    }
    shown.current = { oldest, newest, count: messages.length, height: el?.scrollHeight ?? 0 };
  }, [oldest, newest, messages.length, hasEarlier]);

  function showEarlier() {
    if (loadingEarlier || !onShowEarlier) return;
    askedAt.current = scroller.current?.scrollHeight ?? null;
    setAnnouncement('');
    onShowEarlier();
  }

  const marked = useMessageTarget(messages, hasEarlier, loadingEarlier, showEarlier);

  if (messages.length === 0) {
    return <p className="rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-300">{MESSAGE_TEXTS.emptyThread}</p>;
  }

  return (
    <>
      <div
        ref={scroller}
        // The thread scrolls on its own: keyboard users reach it with Tab and scroll with the arrows.
        tabIndex={0}
        role="region"
        aria-label="Message thread"
        className="max-h-96 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-2 [overflow-anchor:none] sm:p-3 dark:border-slate-700 dark:bg-slate-950"
      >
        {hasEarlier ? (
          <div className="mb-3 flex justify-center">
            <button
              type="button"
              onClick={showEarlier}
              // Not disabled while loading: a disabled button would drop the keyboard focus.
              aria-disabled={loadingEarlier || undefined}
              className={`${buttonClass('secondary')} aria-disabled:cursor-wait aria-disabled:opacity-60`}
            >
              {loadingEarlier ? (
                <span className="size-4 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600 dark:border-t-sky-300" aria-hidden="true" />
              ) : (
                <History className="size-4" aria-hidden="true" />
              )}
              {SHOW_EARLIER_LABEL}
            </button>
          </div>
        ) : null}
        <ol className="grid gap-3">
          {messages.map((m) => {
            const mine = m.fromStaff === (viewer === 'admin');
            const unread = isUnreadFor(m, viewer);
            return (
              <li key={m._id} className={clsx('flex', mine ? 'justify-end' : 'justify-start')}>
                <article
                  id={messageElementId(m._id)}
                  // Focusable from a search hit (useMessageTarget), not a Tab stop.
                  tabIndex={-1}
                  aria-label={`Message from ${authorOf(m)}${unread ? ', unread' : ''}${m._id === marked ? ', found by search' : ''}`}
                  data-unread={unread ? 'true' : undefined}
                  data-found={m._id === marked ? 'true' : undefined}
                  onClick={unread ? () => onMarkRead(m) : undefined}
                  className={clsx(
                    'w-full max-w-[min(36rem,92%)] rounded-lg border p-3 text-sm shadow-sm',
                    mine
                      ? 'border-brand-100 bg-brand-50 dark:border-slate-600 dark:bg-slate-800'
                      : 'border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900',
                    unread && 'cursor-pointer border-l-4 border-l-red-700 dark:border-l-red-400',
                    // The message a search hit opened: a ring and a tint that hold in both themes.
                    m._id === marked && 'bg-amber-50! ring-4 ring-amber-700 dark:bg-amber-950! dark:ring-amber-300',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 dark:focus-visible:outline-sky-300',
                  )}
                >
                  <header className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                    <p className="font-semibold" data-testid="message-author">
                      {m.sender.name}
                      <span className="font-normal text-slate-600 dark:text-slate-300">
                        {m.sender.organisation ? `, ${m.sender.organisation}` : ''} to {m.receiverId.name}
                      </span>
                    </p>
                    <time dateTime={m.createdAt} className="text-xs text-slate-600 dark:text-slate-300">
                      {formatDateTime(m.createdAt)}
                    </time>
                  </header>
                  <MessageContent message={m} mine={mine && !readOnly} staff={viewer === 'admin'} onReply={onReply} onOpenAttachment={(index) => setPreview({ attachments: m.attachments, index })} />
                  <footer className="mt-2 flex flex-wrap items-center justify-between gap-2 text-xs">
                    {unread ? (
                      <>
                        <span className="rounded-full bg-red-700 px-2 py-0.5 font-semibold text-white">New</span>
                        <button
                          type="button"
                          onClick={(e) => {
                            e.stopPropagation();
                            onMarkRead(m);
                          }}
                          className="min-h-6 rounded px-2 py-1 font-semibold text-brand-700 underline hover:no-underline dark:text-sky-300"
                        >
                          Mark as read
                        </button>
                      </>
                    ) : mine && !m.deletedAt ? (
                      <span className="text-slate-600 dark:text-slate-300">{receipt(m)}</span>
                    ) : null}
                  </footer>
                </article>
              </li>
            );
          })}
        </ol>
      </div>
      <p role="status" className="sr-only">
        {loadingEarlier ? 'Loading earlier messages...' : announcement}
      </p>
      <AttachmentPreviewDialog
        attachments={preview?.attachments ?? []}
        index={preview?.index ?? null}
        onIndexChange={(index) => setPreview((p) => (p ? { ...p, index } : p))}
        onClose={() => setPreview(null)}
      />
    </>
  );
}
