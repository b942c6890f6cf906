import { Mail } from 'lucide-react';
import {
  NEWSLETTER_ISSUE_MESSAGES,
  NEWSLETTER_ISSUES_PAGE_SIZE,
  type NewsletterIssuesResponse,
} from '../../../common/schemas/newsletter.ts';
import { EmptyState } from '../../components/portal/empty-state.tsx';
import { PagedTable } from '../../components/ui/paged-table.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { pageCount } from '../../lib/list-params.ts';
import { formatDateTime } from '../../../common/dates.ts';

const ISSUE_COLUMNS = [
  { label: 'Subject' },
  { label: 'Sent' },
  { label: 'Sent by' },
  { label: 'Recipients', align: 'right' },
] as const;

/** The newsletters already sent: subject, when, by whom, how many recipients; newest first, paged. */
export function IssueList({
  data,
  error,
  isPending,
  onRetry,
  page,
  onPage,
}: {
  data: NewsletterIssuesResponse | undefined;
  error: unknown;
  isPending: boolean;
  onRetry: () => void;
  page: number;
  onPage: (page: number) => void;
}) {
  const pages = data ? pageCount(data.total, NEWSLETTER_ISSUES_PAGE_SIZE) : 1;
  return (
    <section
      aria-labelledby="issues-heading"
      className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="issues-heading" className="mb-4 text-xl font-semibold">
        Sent newsletters{' '}
        {data ? <span className="text-base font-normal text-slate-600 dark:text-slate-400">({data.total})</span> : null}
      </h2>
      <PagedTable
        query={{ isPending, error, items: data?.issues }}
        loading="Loading sent newsletters..."
        failed={NEWSLETTER_ISSUE_MESSAGES.loadFailed}
        onRetry={onRetry}
        empty={<EmptyState icon={<Mail className="size-8" aria-hidden="true" />} title="No newsletters sent yet" description="Newsletters you send appear here." />}
        table={{ label: 'Sent newsletters table', caption: 'Sent newsletters, newest first', minWidth: 'min-w-[34rem]', columns: ISSUE_COLUMNS }}
        pager={pages > 1 ? <Pager page={page} pages={pages} onPage={onPage} label="Sent newsletters pages" /> : null}
      >
        {(issue) => (
          <>
            <td className="py-2 pr-4 break-words">{issue.subject}</td>
            <td className="py-2 pr-4 whitespace-nowrap">
              <time dateTime={issue.sentAt}>{formatDateTime(issue.sentAt)}</time>
            </td>
            <td className="py-2 pr-4">{issue.sentBy.name}</td>
            <td className="py-2 text-right tabular-nums">{issue.recipientCount.toLocaleString('en-GB')}</td>
          </>
        )}
      </PagedTable>
    </section>
  );
}
