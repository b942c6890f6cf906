import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ClipboardList, Mail, Newspaper } from 'lucide-react';
import type { SubmissionCountsResponse } from '../../../common/schemas/submissions.ts';
import { apiFetch } from '../../lib/api.ts';
import { PATHS } from '../../../common/paths.ts';

/**
 * The dashboard counts (and the admin navigation's); the review pages invalidate ['submissions'] when
 * they change something.
 */
export function useSubmissionCounts(enabled = true) {
  return useQuery({
    queryKey: ['submissions', 'counts'],
    // Only roles that read submissions may ask (decision 273).
    enabled,
    queryFn: () => apiFetch<SubmissionCountsResponse>('/submissions/counts', { fallbackMessage: 'Failed to load counts' }),
    refetchInterval: 60_000,
  });
}

const cardClass =
  'flex min-h-11 items-center gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800';

/**
 * For the admin dashboard: new vendor applications and unread contact messages, each a link to its
 * review page, plus the newsletter subscriber count.
 */
export function SubmissionCounts() {
  const { data, isError } = useSubmissionCounts();
  const value = (n: number | undefined) => (isError ? '–' : n === undefined ? '…' : String(n));
  const items = [
    { to: PATHS.adminVendorApplications + '?status=new', label: 'New vendor applications', n: data?.newApplications, icon: ClipboardList },
    { to: PATHS.adminContactMessages + '?filter=unread', label: 'Unread contact messages', n: data?.unreadMessages, icon: Mail },
    { to: PATHS.adminNewsletterSubscribers, label: 'Newsletter subscribers', n: data?.subscribers, icon: Newspaper },
  ];
  return (
    <nav aria-label="What visitors sent">
      <ul className="grid gap-3 sm:grid-cols-3">
        {items.map(({ to, label, n, icon: Icon }) => (
          <li key={label}>
            <Link to={to} className={cardClass}>
              <Icon className="size-5 shrink-0 text-brand-700 dark:text-sky-300" aria-hidden="true" />
              <span className="text-2xl font-bold tabular-nums">{value(n)}</span>
              <span className="text-sm text-slate-700 dark:text-slate-300">{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
