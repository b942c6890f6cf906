import { useEffect, useRef, useState } from 'react';
import { clsx } from 'clsx';
import { isUnreadFor, MESSAGE_TEXTS, type Message } from '../../../common/schemas/messages.ts';
import { AttachmentGrid } from './attachment-grid.tsx';
import { AttachmentPreviewDialog } from './attachment-preview-dialog.tsx';

const when = new Intl.DateTimeFormat('en-NG', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The thread: scrolls within about 24 rem and moves to the newest message whenever the list
 * changes. A message waiting for this viewer is marked, and marked read when clicked (or with its
 * button, from the keyboard).
 */
export function MessageThread({
  messages,
  viewer,
  onMarkRead,
}: {
  messages: Message[];
  viewer: 'admin' | 'client';
  onMarkRead: (message: Message) => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<{ attachments: Message['attachments']; index: number } | null>(null);
  const newest = messages.at(-1)?._id;

  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [messages.length, newest]);

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
        className="max-h-96 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-2 sm:p-3 dark:border-slate-700 dark:bg-slate-950"
      >
        <ol className="grid gap-3">
          {messages.map((m) => {
            const mine = m.fromStaff === (viewer === 'admin');
            const unread = isUnreadFor(m, viewer);
            return (
              <li key={m._id} className={clsx('flex', mine ? 'justify-end' : 'justify-start')}>
                <article
                  aria-label={`Message from ${m.senderId.name}${unread ? ', unread' : ''}`}
                  data-unread={unread ? 'true' : undefined}
                  onClick={unread ? () => onMarkRead(m) : undefined}
                  className={clsx(
                    'w-full max-w-[min(36rem,92%)] rounded-lg border p-3 text-sm shadow-sm',
                    mine
                      ? 'border-brand-100 bg-brand-50 dark:border-slate-600 dark:bg-slate-800'
                      : 'border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900',
                    unread && 'cursor-pointer border-l-4 border-l-red-700 dark:border-l-red-400',
                  )}
                >
                  <header className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                    <p className="font-semibold">
                      {m.senderId.name}
                      <span className="font-normal text-slate-600 dark:text-slate-300"> to {m.receiverId.name}</span>
                    </p>
                    <time dateTime={m.createdAt} className="text-xs text-slate-600 dark:text-slate-300">
                      {when.format(new Date(m.createdAt))}
                    </time>
                  </header>
                  {m.subject ? <p className="mt-1 font-semibold break-words">{m.subject}</p> : null}
                  <p className="mt-1 break-words whitespace-pre-wrap text-slate-800 dark:text-slate-100">{m.text}</p>
                  <AttachmentGrid attachments={m.attachments} onOpen={(index) => setPreview({ attachments: m.attachments, index })} />
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
                    ) : mine ? (
                      <span className="text-slate-600 dark:text-slate-300">{m.isRead ? 'Read' : 'Delivered'}</span>
                    ) : null}
                  </footer>
                </article>
              </li>
            );
          })}
        </ol>
      </div>
      <AttachmentPreviewDialog
        attachments={preview?.attachments ?? []}
        index={preview?.index ?? null}
        onIndexChange={(index) => setPreview((p) => (p ? { ...p, index } : p))}
        onClose={() => setPreview(null)}
      />
    </>
  );
}
