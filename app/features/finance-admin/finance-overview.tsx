import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { clsx } from 'clsx';
import { CircleCheck, Download, Settings } from 'lucide-react';
import { PATHS } from '../../../common/paths.ts';
import { formatKobo } from '../../../common/money.ts';
import { formatDateTime, formatDay } from '../../../common/dates.ts';
import type { FinanceOverview as Overview, OverdueRow } from '../../../common/schemas/invoices.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { useFailureToast } from '../../components/portal/notify.ts';
import { FINANCE_CSV_URL, useFinanceOverview } from './finance-admin-api.ts';

const panelClass = 'grid gap-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900';
const mutedClass = 'text-sm text-slate-600 dark:text-slate-300';

/** Where an overdue invoice is on the admin dashboard: its client and project selected, scrolled to the invoice. */
const overdueInvoiceHref = (row: Pick<OverdueRow, 'clientId' | 'projectId' | 'invoiceId'>) =>
  `${PATHS.adminDashboard}?${new URLSearchParams({ client: row.clientId, project: row.projectId })}#invoice-${row.invoiceId}`;

const HEADINGS = ['Number', 'Client', 'Project', 'Issued', 'Due', 'Days overdue', 'Total', 'Outstanding'] as const;
/** The amounts' columns, right-aligned so their figures line up. */
const RIGHT = new Set<string>(['Days overdue', 'Total', 'Outstanding']);

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** One figure card: a title, and each amount under its label. */
function FigureCard({ title, figures, tone = 'plain' }: { title: string; figures: { label: string; kobo: string }[]; tone?: 'plain' | 'warning' }) {
  const id = useId();
  const warn = tone === 'warning' && figures.some((f) => f.kobo !== '0');
  return (
    <section
      aria-labelledby={id}
      className={clsx(
        'rounded-xl border p-4',
        warn ? 'border-amber-400 bg-amber-50 dark:border-amber-700 dark:bg-amber-950/40' : 'border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900',
      )}
    >
      <h3 id={id} className="text-sm font-semibold text-slate-700 dark:text-slate-200">
        {title}
      </h3>
      <dl className="mt-2 grid gap-2">
        {figures.map((f) => (
          <div key={f.label}>
            <dt className="text-xs text-slate-600 dark:text-slate-300">{f.label}</dt>
            <dd className="text-xl font-semibold tabular-nums break-words text-slate-900 dark:text-slate-50">{formatKobo(f.kobo)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Figures({ overview }: { overview: Overview }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      <FigureCard
        title="This month"
        figures={[
          { label: 'Invoiced', kobo: overview.month.invoicedKobo },
          { label: 'Received', kobo: overview.month.receivedKobo },
        ]}
      />
      <FigureCard
        title="This year"
        figures={[
          { label: 'Invoiced', kobo: overview.year.invoicedKobo },
          { label: 'Received', kobo: overview.year.receivedKobo },
        ]}
      />
      <FigureCard title="Outstanding" figures={[{ label: 'Issued, not yet paid', kobo: overview.outstandingKobo }]} />
      <FigureCard title="Overdue" tone="warning" figures={[{ label: 'Past the due date', kobo: overview.overdueKobo }]} />
    </div>
  );
}

const ProjectLink = ({ row }: { row: OverdueRow }) => (
  <Link to={overdueInvoiceHref(row)} className="font-medium text-brand-700 underline underline-offset-2 hover:no-underline dark:text-sky-300">
    {row.projectName}
  </Link>
);

/** The overdue invoices, oldest due date first: a table from md, a list of cards on phones. */
function OverdueInvoices({ rows }: { rows: OverdueRow[] }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className={panelClass}>
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          Overdue invoices
        </h2>
        <p className={mutedClass}>Issued invoices past their due date with something still to pay, the oldest first.</p>
      </div>
      {rows.length === 0 ? (
        <EmptyState
          icon={<CircleCheck className="size-8" aria-hidden="true" />}
          title="Nothing is overdue"
          description="Every issued invoice is paid or still within its payment terms."
        />
      ) : (
        <>
          <ul className="grid gap-2 md:hidden" aria-label="Overdue invoices, oldest first">
            {rows.map((r) => (
              <li key={r.invoiceId} className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
                <p className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-mono font-semibold">{r.number}</span>
                  <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-950 dark:text-red-100">
                    {days(r.daysOverdue)} overdue
                  </span>
                </p>
                <p className="mt-1 break-words">
                  {r.clientName || 'No client'} · <ProjectLink row={r} />
                </p>
                <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1">
                  <dt className="text-slate-600 dark:text-slate-300">Issued</dt>
                  <dd>{formatDay(r.issueDate)}</dd>
                  <dt className="text-slate-600 dark:text-slate-300">Due</dt>
                  <dd>{formatDay(r.dueDate)}</dd>
                  <dt className="text-slate-600 dark:text-slate-300">Total</dt>
                  <dd className="tabular-nums">{formatKobo(r.grossKobo)}</dd>
                  <dt className="text-slate-600 dark:text-slate-300">Outstanding</dt>
                  <dd className="font-semibold tabular-nums">{formatKobo(r.outstandingKobo)}</dd>
                </dl>
              </li>
            ))}
          </ul>
          <div role="region" aria-label="Overdue invoices table" tabIndex={0} className="hidden overflow-x-auto md:block">
            <table className="w-full border-collapse text-left text-sm">
              <caption className="sr-only">Overdue invoices, oldest first</caption>
              <thead>
                <tr className="border-b border-slate-300 dark:border-slate-600">
                  {HEADINGS.map((h) => (
                    <th key={h} scope="col" className={clsx('py-2 font-semibold', RIGHT.has(h) ? 'pr-0 pl-3 text-right' : 'pr-3')}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.invoiceId} className="border-b border-slate-200 align-top last:border-0 dark:border-slate-800">
                    <td className="py-2 pr-3 font-mono whitespace-nowrap">{r.number}</td>
                    <td className="py-2 pr-3 break-words">{r.clientName}</td>
                    <td className="py-2 pr-3 break-words">
                      <ProjectLink row={r} />
                    </td>
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDay(r.issueDate)}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDay(r.dueDate)}</td>
                    <td className="py-2 pl-3 text-right tabular-nums">{r.daysOverdue}</td>
                    <td className="py-2 pl-3 text-right whitespace-nowrap tabular-nums">{formatKobo(r.grossKobo)}</td>
                    <td className="py-2 pl-3 text-right font-semibold whitespace-nowrap tabular-nums">{formatKobo(r.outstandingKobo)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** Paystack payments whose amount differed from the one asked: recorded, never counted, for staff to look at. */
function PaymentsToCheck({ rows }: { rows: Overview['flagged'] }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className={panelClass}>
      <div>
        <h2 id={`${id}-heading`} className="text-lg font-semibold">
          Payments to check
        </h2>
        <p className={mutedClass}>
          Paystack reported these payments with an amount other than the one asked. They are recorded but not counted against the invoice: check them
          with Paystack and record the payment by hand if it is right.
        </p>
      </div>
      <ul className="grid gap-2">
        {rows.map((f) => (
          <li key={f.reference} className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 sm:grid-cols-[auto_1fr_auto_1fr]">
              <dt className="text-slate-700 dark:text-slate-300">Reference</dt>
              <dd className="font-mono break-all">{f.reference}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Invoice</dt>
              <dd className="font-mono">{f.invoiceNumber}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Asked</dt>
              <dd className="tabular-nums">{formatKobo(f.askedKobo)}</dd>
              <dt className="text-slate-700 dark:text-slate-300">Paid</dt>
              <dd className="font-semibold tabular-nums">{formatKobo(f.paidKobo)}</dd>
              <dt className="text-slate-700 dark:text-slate-300">When</dt>
              <dd className="sm:col-span-3">
                <time dateTime={f.at}>{formatDateTime(f.at)}</time>
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Staff's finance overview (issue 26): this month's and this year's invoiced and received amounts,
 * what is outstanding and overdue, the overdue invoices oldest first, Paystack payments to check,
 * and every issued invoice as CSV. `settingsLink` is shown to those who may change the settings.
 */
export function FinanceOverview({ settingsLink }: { settingsLink: boolean }) {
  const overview = useFinanceOverview();
  useFailureToast(overview.error, 'Failed to load the finance overview');
  const data = overview.data;

  let body: ReactNode;
  if (overview.isPending) body = <InlineLoading label="Loading the finance overview..." />;
  else if (!data) body = <ErrorState title="Failed to load the finance overview" error={overview.error} onRetry={() => void overview.refetch()} />;
  else
    body = (
      <>
        <section aria-labelledby="finance-figures-heading" className="grid gap-3">
          <h2 id="finance-figures-heading" className="sr-only">
            Figures
          </h2>
          <Figures overview={data} />
        </section>
        <OverdueInvoices rows={data.overdue} />
        {data.flagged.length > 0 ? <PaymentsToCheck rows={data.flagged} /> : null}
      </>
    );

  return (
    <div className="grid gap-4" aria-busy={overview.isFetching}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className={mutedClass}>
          {data ? (
            <>
              Issued invoices as of <time dateTime={data.today}>{formatDay(data.today)}</time> (Lagos). Drafts are not counted.
            </>
          ) : (
            'Issued invoices and payments across projects. Drafts are not counted.'
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          {settingsLink ? (
            <Link to={PATHS.adminFinanceSettings} className={buttonClass('secondary')}>
              <Settings className="size-4" aria-hidden="true" />
              Invoice settings
            </Link>
          ) : null}
          <a href={FINANCE_CSV_URL} download className={buttonClass('secondary')}>
            <Download className="size-4" aria-hidden="true" />
            Download CSV
          </a>
        </div>
      </div>
      {body}
    </div>
  );
}
