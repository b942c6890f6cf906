import { Link } from 'react-router';
import { Inbox } from 'lucide-react';
import { VENDOR_LIST_PAGE_SIZE, VENDOR_STATUS_LABELS, VENDOR_STATUSES } from '../../../common/schemas/vendors.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { StatusFilter } from '../../components/ui/filter-select.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { pageCount, useListParams } from '../../lib/list-params.ts';
import { PATHS } from '../../../common/paths.ts';
import { VendorStatusBadge } from './vendor-status-badge.tsx';
import { useVendorApplications } from './vendors-api.ts';
import { formatDateTime } from '../../../common/dates.ts';


/** Staff's list of vendor applications: newest first, filtered by status, a page at a time. */
export function VendorApplicationsList() {
  const { value: status, page, go } = useListParams('status', VENDOR_STATUSES);
  const { data, error, isPending, refetch } = useVendorApplications(status, page);
  const pages = data ? pageCount(data.total, VENDOR_LIST_PAGE_SIZE) : 1;

  return (
    <section aria-labelledby="vendor-list-heading" className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <h2 id="vendor-list-heading" className="text-xl font-semibold">
          Applications {data ? <span className="text-base font-normal text-slate-600 dark:text-slate-400">({data.total})</span> : null}
        </h2>
        <StatusFilter value={status} values={VENDOR_STATUSES} labels={VENDOR_STATUS_LABELS} go={go} />
      </div>
      {isPending ? (
        <InlineLoading label="Loading applications..." />
      ) : error ? (
        <ErrorState title="Failed to load vendor applications" error={error} onRetry={() => void refetch()} />
      ) : !data.applications.length ? (
        <EmptyState icon={<Inbox className="size-8" aria-hidden="true" />} title="No applications" description={status ? 'No application has this status.' : 'Vendor registrations from the website will appear here.'} />
      ) : (
        <>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {data.applications.map((a) => (
              <li key={a._id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-3">
                <div className="min-w-0 flex-1">
                  <Link to={PATHS.adminVendorApplication(a._id)} className="font-semibold text-brand-700 underline-offset-4 hover:underline dark:text-sky-300">
                    {a.companyName}
                  </Link>
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    {a.businessType} · {a.contactPersonName} · {a.documentCount} {a.documentCount === 1 ? 'document' : 'documents'}
                  </p>
                  <p className="text-xs text-slate-600 dark:text-slate-400">
                    <span className="font-mono">{a.reference}</span> · received {formatDateTime(a.createdAt)}
                  </p>
                </div>
                <VendorStatusBadge status={a.status} />
              </li>
            ))}
          </ul>
          {pages > 1 ? <Pager page={page} pages={pages} onPage={(p) => go({ page: p })} /> : null}
        </>
      )}
    </section>
  );
}
