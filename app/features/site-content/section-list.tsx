import { Link } from 'react-router';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { PATHS } from '../../../common/paths.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { useSections } from './site-content-api.ts';

const badge = 'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold';

/** Every section of the website with its state: live, draft not yet published, scheduled. */
export function SectionList() {
  const { data, isPending, error, refetch } = useSections();
  if (isPending) return <InlineLoading label="Loading the website sections…" />;
  if (error || !data) return <ErrorState title="The website sections could not be loaded" error={error} onRetry={() => void refetch()} />;
  if (!data.sections.length) return <EmptyState title="No sections yet" description="The website's content appears here after the server's first start." />;
  return (
    <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
      {data.sections.map((s) => (
        <li key={s.section} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <Link to={`${PATHS.adminWebsite}/${s.section}`} className="min-h-11 min-w-0 flex-1 content-center font-semibold text-brand-800 underline-offset-4 hover:underline dark:text-sky-200">
            {s.title}
          </Link>
          <span className="flex flex-wrap gap-2">
            {s.changed ? (
              <span className={`${badge} bg-amber-100 text-amber-950 dark:bg-amber-900 dark:text-amber-50`}>Draft not published</span>
            ) : (
              <span className={`${badge} bg-emerald-100 text-emerald-950 dark:bg-emerald-900 dark:text-emerald-50`}>Published</span>
            )}
            {s.scheduledAt ? (
              <span className={`${badge} bg-sky-100 text-sky-950 dark:bg-sky-900 dark:text-sky-50`}>Scheduled {formatDateTimeWithZone(s.scheduledAt)}</span>
            ) : null}
          </span>
          <span className="basis-full text-sm text-slate-700 dark:text-slate-300">
            Published {formatDateTimeWithZone(s.publishedAt)} by {s.publishedBy}
            {s.changed ? ` · draft saved ${formatDateTimeWithZone(s.draftSavedAt)} by ${s.draftSavedBy}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
