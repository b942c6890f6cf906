import { useState } from 'react';
import { History } from 'lucide-react';
import { REPORT_SECTIONS, type Report, type ReportVersion } from '../../../common/schemas/reports.ts';
import { formatDay, formatDateTimeWithZone } from '../../../common/dates.ts';
import { buttonClass } from '../../components/button-class.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { ModalDialog } from '../../components/portal/modal-dialog.tsx';
import { useReportVersions } from './reports-api.ts';

function VersionText({ version }: { version: Pick<ReportVersion, 'date' | 'project' | 'projectCode' | 'team' | (typeof REPORT_SECTIONS)[number]['key']> & { imageNames: string[] } }) {
  return (
    <>
      <p className="text-xs text-slate-700 dark:text-slate-300">
        Report of {formatDay(version.date)} · {version.project}
        {version.projectCode ? ` (${version.projectCode})` : ''} · Team: {version.team}
      </p>
      <dl className="mt-2 grid gap-2 text-sm">
        {REPORT_SECTIONS.filter((s) => version[s.key]).map((s) => (
          <div key={s.key}>
            <dt className="font-medium text-slate-700 dark:text-slate-200">{s.label}</dt>
            <dd className="whitespace-pre-line text-slate-800 dark:text-slate-100">{version[s.key]}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-700 dark:text-slate-300">
        {version.imageNames.length === 0 ? 'No images' : `Images: ${version.imageNames.join(', ')}`}
      </p>
    </>
  );
}

const writer = (name: string | null) => name ?? 'a former staff member';

/** 'History' (staff): the report as it reads now, then every earlier version with who wrote it and when (Lagos time). */
export function ReportHistoryDialog({ report }: { report: Report }) {
  const [open, setOpen] = useState(false);
  const versions = useReportVersions(report._id, open);
  const title = `History of the report of ${formatDay(report.date)}`;
  return (
    <>
      <button type="button" className={buttonClass('secondary')} onClick={() => setOpen(true)} aria-label={`History of the report of ${formatDay(report.date)}`}>
        <History className="size-4" aria-hidden="true" />
        History
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={title} size="lg">
        {versions.isPending ? (
          <InlineLoading label="Loading the history..." />
        ) : versions.isError ? (
          <ErrorState title="Failed to load the history" error={versions.error} onRetry={() => versions.refetch()} />
        ) : (
          <ol className="grid gap-3" aria-label="Versions, newest first">
            <li className="rounded-lg border border-brand-700 p-3 dark:border-sky-300">
              <h3 className="font-semibold">
                Version {versions.data.current.version} (current)
              </h3>
              <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
                {versions.data.current.version === 1 ? 'Written' : 'Corrected'} by {writer(versions.data.current.writtenBy)} on {formatDateTimeWithZone(versions.data.current.writtenAt)}
              </p>
              <VersionText version={{ ...report, imageNames: report.images.map((i) => i.name) }} />
            </li>
            {versions.data.versions.map((version) => (
              <li key={version.version} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700">
                <h3 className="font-semibold">Version {version.version}</h3>
                <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
                  {version.version === 1 ? 'Written' : 'Corrected'} by {writer(version.writtenBy)} on {formatDateTimeWithZone(version.writtenAt)}
                </p>
                <VersionText version={version} />
              </li>
            ))}
          </ol>
        )}
      </ModalDialog>
    </>
  );
}
