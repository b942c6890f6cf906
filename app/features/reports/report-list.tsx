import { useEffect, useRef, type ReactNode } from 'react';
import { Download, FileText, ImageIcon } from 'lucide-react';
import { REPORT_SECTIONS, type Report } from '../../../common/schemas/reports.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { formatDay, formatDate } from '../../../common/dates.ts';
import { EditReportDialog } from './edit-report-dialog.tsx';
import { ReportHistoryDialog } from './report-history-dialog.tsx';
import { reportsOf, useProjectReports } from './reports-api.ts';

function ReportCard({ report, staff, readOnly, actions }: { report: Report; staff: boolean; readOnly: boolean; actions?: (report: Report) => ReactNode }) {
  const sections = REPORT_SECTIONS.filter((s) => report[s.key]);
  return (
    <article aria-labelledby={`report-${report._id}`} className="rounded-lg border border-slate-200 p-3 sm:p-4 dark:border-slate-700">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h4 id={`report-${report._id}`} tabIndex={-1} className="font-semibold">
            Report of {formatDay(report.date)}
          </h4>
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {report.project}
            {report.projectCode ? ` (${report.projectCode})` : ''} · Team: {report.team}
          </p>
          {report.correctedAt ? <p className="text-xs font-medium text-slate-700 dark:text-slate-200">Corrected on {formatDate(report.correctedAt)}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          {/* The PDF route checks who asks; the session cookie travels with this plain link. */}
          <a href={report.pdfUrl} download className={buttonClass('secondary')} aria-label={`Download PDF of the report of ${formatDay(report.date)}`}>
            <Download className="size-4" aria-hidden="true" />
            Download PDF
          </a>
          {staff && !readOnly ? <EditReportDialog report={report} /> : null}
          {staff && report.version > 1 ? <ReportHistoryDialog report={report} /> : null}
          {actions?.(report)}
        </div>
      </div>
      <dl className="mt-3 grid gap-2 text-sm">
        {sections.slice(0, 2).map((s) => (
          <div key={s.key}>
            <dt className="font-medium text-slate-700 dark:text-slate-200">{s.label}</dt>
            <dd className="whitespace-pre-line text-slate-800 dark:text-slate-100">{report[s.key]}</dd>
          </div>
        ))}
      </dl>
      {sections.length > 2 ? (
        <details className="mt-2 text-sm">
          <summary className="min-h-8 cursor-pointer py-1 font-medium text-brand-700 dark:text-sky-300">Read the full report</summary>
          <dl className="mt-2 grid gap-2">
            {sections.slice(2).map((s) => (
              <div key={s.key}>
                <dt className="font-medium text-slate-700 dark:text-slate-200">{s.label}</dt>
                <dd className="whitespace-pre-line text-slate-800 dark:text-slate-100">{report[s.key]}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
      {report.images.length > 0 ? (
        <div className="mt-3">
          <p className="mb-2 flex items-center gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
            <ImageIcon className="size-3.5" aria-hidden="true" />
            {report.images.length === 1 ? '1 image' : `${report.images.length} images`} (open one to see it full size)
          </p>
          <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4 xl:grid-cols-6">
            {report.images.map((image) => (
              <li key={image._id}>
                <a
                  href={image.url}
                  target="_blank"
                  rel="noopener"
                  className="block overflow-hidden rounded-md border border-slate-200 dark:border-slate-700"
                  aria-label={`Open ${image.name} full size (new tab)`}
                >
                  <img
                    src={image.thumbnailUrl}
                    alt={image.name}
                    loading="lazy"
                    width={image.width}
                    height={image.height}
                    className="aspect-square h-auto w-full object-cover"
                  />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </article>
  );
}

/**
 * A project's progress reports with their thumbnails and PDF downloads; staff also edit them (not
 * on an archived project, `readOnly`) and open their history.
 */
/** `actions`: more buttons on each report, from the page (another feature's, such as 'Ask for approval', decision 293). */
export function ReportList({ projectId, staff = false, readOnly = false, actions }: { projectId: string; staff?: boolean; readOnly?: boolean; actions?: (report: Report) => ReactNode }) {
  const reports = useProjectReports(projectId);
  const list = reportsOf(reports.data);
  // The report mail links to '#report-<id>': the report is shown once it has loaded (the page renders in the browser).
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const target = window.location.hash.slice(1);
    if (!target.startsWith('report-') || shown.current === target || !list.some((r) => `report-${r._id}` === target)) return;
    shown.current = target;
    const heading = document.getElementById(target);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [list]);
  if (reports.isPending) return <InlineLoading label="Loading reports..." />;
  if (reports.isError) return <ErrorState title="Failed to load project data" error={reports.error} onRetry={() => reports.refetch()} />;
  if (list.length === 0) return <EmptyState icon={<FileText className="size-8" aria-hidden="true" />} title="No reports yet" description="Progress reports will appear here." />;
  return (
    <div className="grid grid-cols-1 gap-3">
      {list.map((report) => (
        <ReportCard key={report._id} report={report} staff={staff} readOnly={readOnly} actions={actions} />
      ))}
      {reports.hasNextPage ? (
        <button type="button" className={buttonClass('secondary')} onClick={() => reports.fetchNextPage()} disabled={reports.isFetchingNextPage}>
          {reports.isFetchingNextPage ? 'Loading more reports...' : 'Show older reports'}
        </button>
      ) : null}
    </div>
  );
}

/** True while the project's reports are failing to load (for the dashboard's one 'Failed to load project data' toast). */
export function useReportsError(projectId: string | null | undefined) {
  return useProjectReports(projectId).error;
}
