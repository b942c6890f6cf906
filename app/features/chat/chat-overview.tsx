import { useState } from 'react';
import { MessageCircle } from 'lucide-react';
import { CHAT_ADMIN_DAYS, type ChatConversationSummary } from '../../../common/schemas/chat.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { PATHS } from '../../../common/paths.ts';
import { useChatOverview } from './chat-admin-api.ts';
import { formatDateTime } from '../../../common/dates.ts';

const OUTCOME_LABELS = { answered: 'Answered', unknown: "Didn't know", refused: 'Refused', empty: 'Empty reply', failed: 'Failed' } as const;
const MODE_LABELS = { ai: 'AI', offline: 'Facts', none: '-' } as const;

function Conversation({ c }: { c: ChatConversationSummary }) {
  const [open, setOpen] = useState(false);
  const id = `chat-conversation-${c._id}`;
  const unknown = c.turns.filter((t) => t.outcome === 'unknown').length;
  return (
    <li className="rounded-lg border border-slate-200 dark:border-slate-700">
      <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)} className="flex w-full flex-wrap items-baseline justify-between gap-2 p-3 text-left">
        <span className="min-w-0 flex-1 truncate font-medium">{c.turns[0]?.question ?? '(no question)'}</span>
        <span className="flex flex-wrap gap-2 text-xs text-slate-700 dark:text-slate-300">
          <span>{formatDateTime(c.lastAt)}</span>
          <span>
            {c.turns.length} question{c.turns.length === 1 ? '' : 's'}
          </span>
          {unknown ? <span className="rounded bg-amber-100 px-1.5 font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">{unknown} unanswered</span> : null}
          {c.handedOffAt ? <span className="rounded bg-emerald-100 px-1.5 font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">Handed off</span> : null}
        </span>
      </button>
      <div id={id} hidden={!open} className="space-y-3 border-t border-slate-200 p-3 text-sm dark:border-slate-700">
        {c.turns.map((t, i) => (
          <div key={i} className="space-y-1">
            <p>
              <span className="font-semibold">Visitor:</span> {t.question}
            </p>
            <p className="whitespace-pre-wrap text-slate-700 dark:text-slate-300">
              <span className="font-semibold">Assistant ({MODE_LABELS[t.mode]}, {OUTCOME_LABELS[t.outcome]}):</span> {t.answer || '(no answer)'}
            </p>
          </div>
        ))}
        {c.handedOffAt ? (
          <p>
            Handed off {formatDateTime(c.handedOffAt)}:{' '}
            <a className="font-medium underline" href={PATHS.adminContactMessages}>
              see the contact messages
            </a>
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** The staff page of the support chat. */
export function ChatOverview() {
  const { data, isPending, error, refetch } = useChatOverview();
  if (isPending) return <InlineLoading label="Loading conversations..." />;
  if (error) return <ErrorState title="Failed to load conversations" error={error} onRetry={() => void refetch()} />;
  return (
    <div className="space-y-8">
      <dl className="grid gap-3 sm:grid-cols-3">
        {[
          ['Conversations', data.totals.conversations],
          ['Handed off to the team', data.totals.handedOff],
          ["Questions it couldn't answer", data.totals.unknown],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
            <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
            <dd className="text-2xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="chat-unknown-title">
        <h2 id="chat-unknown-title" className="text-lg font-bold">
          Most frequent questions it couldn't answer
        </h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">Add these to the website's pages, and the assistant will answer them too.</p>
        {data.unknownQuestions.length ? (
          <table className="mt-3 w-full text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th className="py-2">Question</th>
                <th className="py-2">Times asked</th>
                <th className="py-2">Last asked</th>
              </tr>
            </thead>
            <tbody>
              {data.unknownQuestions.map((u) => (
                <tr key={u.question} className="border-b border-slate-100 dark:border-slate-800">
                  <td className="py-2 pr-3">{u.question}</td>
                  <td className="py-2">{u.count}</td>
                  <td className="py-2">{formatDateTime(u.lastAskedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="mt-3 text-sm">Every question was answered.</p>
        )}
      </section>
      <section aria-labelledby="chat-recent-title">
        <h2 id="chat-recent-title" className="text-lg font-bold">
          Recent conversations (kept {CHAT_ADMIN_DAYS} days)
        </h2>
        {data.conversations.length ? (
          <ul className="mt-3 space-y-2">
            {data.conversations.map((c) => (
              <Conversation key={c._id} c={c} />
            ))}
          </ul>
        ) : (
          <EmptyState icon={<MessageCircle aria-hidden="true" />} title="No conversations yet" description="Questions visitors ask the support chat appear here." />
        )}
      </section>
    </div>
  );
}
