import { clsx } from 'clsx';
import { Download, Users } from 'lucide-react';
import {
  NEWSLETTER_LIST_PAGE_SIZE,
  NEWSLETTER_STATUS_LABELS,
  NEWSLETTER_STATUSES,
  type NewsletterStatus,
} from '../../../common/schemas/newsletter.ts';
import { EmptyState } from '../../components/portal/empty-state.tsx';
import { PagedTable } from '../../components/ui/paged-table.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { StatusFilter } from '../../components/ui/filter-select.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { pageCount, useListParams } from '../../lib/list-params.ts';
import { subscribersCsvUrl, useNewsletterSubscribers } from './newsletter-api.ts';
import { formatDate } from '../../../common/dates.ts';

const date = (iso: string | null) => (iso ? formatDate(iso) : '–');
const STYLE: Record<NewsletterStatus, string> = {
  pending: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  subscribed: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100',
  unsubscribed: 'bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100',
};

const SUBSCRIBER_COLUMNS = [
  { label: 'Email' },
  { label: 'Status' },
  { label: 'Signed up' },
  { label: 'Confirmed' },
  { label: 'Unsubscribed' },
] as const;

/** Staff's list of newsletter subscribers with their status, and the CSV export. */
export function SubscriberList() {
  const { value: status, page, go } = useListParams('status', NEWSLETTER_STATUSES);
  const { data, error, isPending, refetch } = useNewsletterSubscribers(status, page);
  const pages = data ? pageCount(data.total, NEWSLETTER_LIST_PAGE_SIZE) : 1;

  return (
    <section
      aria-labelledby="subscribers-heading"
      className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <h2 id="subscribers-heading" className="text-xl font-semibold">
          Subscribers{' '}
          {data ? (
            <span className="text-base font-normal text-slate-600 dark:text-slate-400">({data.total})</span>
          ) : null}
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <StatusFilter value={status} values={NEWSLETTER_STATUSES} labels={NEWSLETTER_STATUS_LABELS} go={go} />
          <a href={subscribersCsvUrl(status)} download className={buttonClass('secondary')}>
            <Download className="size-4" aria-hidden="true" />
            Export CSV
          </a>
        </div>
      </div>
      <PagedTable
        query={{ isPending, error, items: data?.subscribers }}
        loading="Loading subscribers..."
        failed="Failed to load subscribers"
        onRetry={() => void refetch()}
        empty={<EmptyState icon={<Users className="size-8" aria-hidden="true" />} title="No subscribers" description="Addresses from the newsletter box will appear here." />}
        table={{ label: 'Subscribers table', caption: 'Newsletter subscribers', minWidth: 'min-w-[36rem]', columns: SUBSCRIBER_COLUMNS }}
        pager={pages > 1 ? <Pager page={page} pages={pages} onPage={(p) => go({ page: p })} /> : null}
      >
        {(s) => (
          <>
            <td className="py-2 pr-4 break-all">{s.email}</td>
            <td className="py-2 pr-4">
              <span className={clsx('inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold', STYLE[s.status])}>{NEWSLETTER_STATUS_LABELS[s.status]}</span>
            </td>
            <td className="py-2 pr-4">{date(s.createdAt)}</td>
            <td className="py-2 pr-4">{date(s.confirmedAt)}</td>
            <td className="py-2">{date(s.unsubscribedAt)}</td>
          </>
        )}
      </PagedTable>
    </section>
  );
}
