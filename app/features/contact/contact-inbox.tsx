import { useState } from 'react';
import { clsx } from 'clsx';
import { ChevronDown, Inbox, Mail } from 'lucide-react';
import { CONTACT_INBOX_PAGE_SIZE, type ContactMessage } from '../../../common/schemas/contact.ts';
import { useSection } from '../../lib/site-content.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { Pager } from '../../components/ui/pager.tsx';
import { pageCount, useListParams } from '../../lib/list-params.ts';
import { toastFailure } from '../../components/portal/notify.ts';
import { useContactInbox, useSetContactRead, type InboxFilter } from './contact-api.ts';
import { formatDateTime } from '../../../common/dates.ts';

const FILTERS: { value: InboxFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'read', label: 'Read' },
];
const FILTER_VALUES = FILTERS.map((f) => f.value);

function replyLink(m: ContactMessage, companyShortName: string) {
  const subject = `Re: your message to ${companyShortName}`;
  const quoted = m.message
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  return `mailto:${m.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(`\n\n${m.name} wrote:\n${quoted}`)}`;
}

function MessageItem({ message, open, onToggle, onChange }: { message: ContactMessage; open: boolean; onToggle: () => void; onChange: (m: ContactMessage) => void }) {
  const company = useSection('company');
  const setRead = useSetContactRead();
  const panelId = `message-${message._id}`;
  const mark = (isRead: boolean) =>
    setRead
      .mutateAsync({ id: message._id, isRead })
      .then((res) => onChange(res.message))
      .catch((err) => toastFailure('Failed to update the message', err));

  return (
    <li className={clsx('rounded-lg border', message.isRead ? 'border-slate-200 dark:border-slate-800' : 'border-brand-600 bg-brand-50 dark:border-sky-400 dark:bg-slate-800')}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          onToggle();
          // Opening an unread message reads it.
          if (!open && !message.isRead) void mark(true);
        }}
        className="flex w-full items-start gap-3 p-3 text-left"
      >
        <span className={clsx('mt-2 size-2.5 shrink-0 rounded-full', message.isRead ? 'bg-transparent' : 'bg-brand-700 dark:bg-sky-300')} aria-hidden="true" />
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className={clsx('truncate', !message.isRead && 'font-bold')}>
              {message.name}
              {message.company ? <span className="font-normal text-slate-700 dark:text-slate-300"> · {message.company}</span> : null}
            </span>
            <span className="text-xs text-slate-600 dark:text-slate-400">{formatDateTime(message.createdAt)}</span>
          </span>
          <span className="mt-0.5 block truncate text-sm text-slate-700 dark:text-slate-300">{message.message}</span>
          <span className="sr-only">{message.isRead ? ' (read)' : ' (unread)'}</span>
        </span>
        <ChevronDown className={clsx('mt-1 size-5 shrink-0 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </button>
      {open ? (
        <div id={panelId} className="border-t border-slate-200 px-3 pt-3 pb-4 dark:border-slate-700">
          <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[6rem_1fr]">
            <dt className="font-medium text-slate-600 dark:text-slate-400">Email</dt>
            <dd className="break-all">{message.email}</dd>
            <dt className="font-medium text-slate-600 dark:text-slate-400">Phone</dt>
            <dd>{message.phone || 'Not given'}</dd>
            <dt className="font-medium text-slate-600 dark:text-slate-400">Company</dt>
            <dd>{message.company || 'Not given'}</dd>
          </dl>
          <p className="mt-3 break-words whitespace-pre-line">{message.message}</p>
          <div className="mt-4 flex flex-wrap gap-2">
            <a href={replyLink(message, company.shortName)} className={buttonClass('primary')}>
              <Mail className="size-4" aria-hidden="true" />
              Reply by e-mail
            </a>
            <button type="button" className={buttonClass('secondary')} onClick={() => void mark(!message.isRead)} disabled={setRead.isPending}>
              {message.isRead ? 'Mark as unread' : 'Mark as read'}
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}

/** A view of the inbox: the messages opened in it stay listed (and open) until staff move on. */
type Kept = { view: string; open: string[]; messages: ContactMessage[] };

/**
 * The page's messages plus those opened in this view that the server no longer lists there (an
 * unread message read by opening it leaves the 'Unread' list), newest first like the server's list.
 */
function withKept(listed: ContactMessage[], kept: ContactMessage[]): ContactMessage[] {
  const ids = new Set(listed.map((m) => m._id));
  const extra = kept.filter((m) => !ids.has(m._id));
  if (!extra.length) return listed;
  return [...listed, ...extra].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b._id.localeCompare(a._id));
}

/** Staff's inbox of contact messages: unread ones stand out; opening one reads it; reply by e-mail. */
export function ContactInbox() {
  const { value: filter, page, go } = useListParams('filter', FILTER_VALUES, 'all');
  const { data, error, isPending, refetch } = useContactInbox(filter, page);
  const pages = data ? pageCount(data.total, CONTACT_INBOX_PAGE_SIZE) : 1;
  // Another view (filter or page) starts afresh; a reload does too, as this lives in memory only.
  const view = `${filter}:${page}`;
  const [keptState, setKept] = useState<Kept>({ view, open: [], messages: [] });
  // Forgotten as soon as the view changes, so coming back to this view later starts afresh too.
  if (keptState.view !== view) setKept({ view, open: [], messages: [] });
  const kept = keptState.view === view ? keptState : { view, open: [], messages: [] };
  const keep = (m: ContactMessage) =>
    setKept((k) => {
      const base = k.view === view ? k : { view, open: [], messages: [] };
      return { ...base, messages: [...base.messages.filter((x) => x._id !== m._id), m] };
    });
  const toggle = (m: ContactMessage) =>
    setKept((k) => {
      const base = k.view === view ? k : { view, open: [], messages: [] };
      const isOpen = base.open.includes(m._id);
      return {
        view,
        open: isOpen ? base.open.filter((id) => id !== m._id) : [...base.open, m._id],
        messages: [...base.messages.filter((x) => x._id !== m._id), m],
      };
    });
  // The kept copy is only a stand-in: the server's own copy wins while it still lists the message.
  const shown = data ? withKept(data.messages, kept.messages) : [];

  return (
    <section aria-labelledby="inbox-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="inbox-heading" className="text-xl font-semibold">
          Inbox {data ? <span className="text-base font-normal text-slate-600 dark:text-slate-400">({data.unread} unread)</span> : null}
        </h2>
        <div role="group" aria-label="Show" className="flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-800">
          {FILTERS.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={filter === f.value}
              onClick={() => go({ value: f.value, page: 1 })}
              className={clsx(
                'min-h-11 rounded-md px-4 text-sm font-semibold',
                filter === f.value ? 'bg-white text-slate-900 shadow dark:bg-slate-950 dark:text-white' : 'text-slate-700 hover:bg-white/60 dark:text-slate-300 dark:hover:bg-slate-700',
              )}
            >
              {f.label}
            </button>
          ))}
        </div>
      </div>
      {isPending ? (
        <InlineLoading label="Loading messages..." />
      ) : error ? (
        <ErrorState title="Failed to load messages" error={error} onRetry={() => void refetch()} />
      ) : !shown.length ? (
        <EmptyState icon={<Inbox className="size-8" aria-hidden="true" />} title="No messages" description={filter === 'unread' ? 'Every message has been read.' : 'Messages from the contact form will appear here.'} />
      ) : (
        <>
          <ul className="space-y-2">
            {shown.map((m) => (
              <MessageItem key={m._id} message={m} open={kept.open.includes(m._id)} onToggle={() => toggle(m)} onChange={keep} />
            ))}
          </ul>
          {pages > 1 ? <Pager page={page} pages={pages} onPage={(p) => go({ page: p })} /> : null}
        </>
      )}
    </section>
  );
}
