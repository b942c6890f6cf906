import { useId } from 'react';
import { clsx } from 'clsx';
import { Download, History } from 'lucide-react';
import { auditValueText, type AuditEvent, type AuditFilter } from '../../../common/schemas/audit.ts';
import { formatDateTimeSeconds } from '../../../common/dates.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { useFailureToast } from '../../components/portal/notify.ts';
import { inputClass, labelClass } from '../../components/forms/field-classes.ts';
import { auditCsvUrl, useAuditEvents, useAuditFilterOptions } from './audit-api.ts';
import { TableHead } from '../../components/portal/table-head.tsx';


/** Each changed field on its own line: 'status: not-started → in-progress'. */
function Changes({ event, names }: { event: AuditEvent; names: Record<string, string> }) {
  const shown = (key: string, value: unknown) => auditValueText(key, value, names);
  const keys = [...new Set([...Object.keys(event.before ?? {}), ...Object.keys(event.after ?? {})])];
  if (keys.length === 0) return <span className="text-slate-600 dark:text-slate-300">(nothing recorded)</span>;
  return (
    <ul className="grid gap-0.5">
      {keys.map((k) => (
        <li key={k} className="break-words">
          <span className="font-semibold">{k}</span>:{' '}
          {/* Something created has only its new values, something deleted only its old ones. */}
          {event.before === null ? (
            <ins className="text-emerald-800 no-underline dark:text-emerald-200">{shown(k, event.after?.[k])}</ins>
          ) : event.after === null ? (
            <del className="text-red-800 dark:text-red-200">{shown(k, event.before[k])}</del>
          ) : (
            <>
              <del className="text-red-800 dark:text-red-200">{shown(k, event.before?.[k])}</del>{' '}
              <span aria-hidden="true">→</span>
              <span className="sr-only"> changed to </span>{' '}
              <ins className="text-emerald-800 no-underline dark:text-emerald-200">{shown(k, event.after?.[k])}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

const When = ({ at }: { at: string }) => <time dateTime={at}>{formatDateTimeSeconds(at)}</time>;

function Filters({ filter, onChange }: { filter: AuditFilter; onChange: (next: AuditFilter) => void }) {
  const id = useId();
  const options = useAuditFilterOptions().data;
  const select = (key: 'actorId' | 'projectId', label: string, all: string, items: { id: string; label: string }[]) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <select
        id={`${id}-${key}`}
        className={inputClass}
        value={filter[key] ?? ''}
        onChange={(e) => onChange({ ...filter, [key]: e.target.value || undefined })}
      >
        <option value="">{all}</option>
        {items.map((i) => (
          <option key={i.id} value={i.id}>
            {i.label}
          </option>
        ))}
      </select>
    </div>
  );
  const day = (key: 'from' | 'to', label: string) => (
    <div>
      <label htmlFor={`${id}-${key}`} className={labelClass}>
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        type="date"
        className={inputClass}
        value={filter[key] ?? ''}
        onChange={(e) => onChange({ ...filter, [key]: e.target.value || undefined })}
      />
    </div>
  );
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {select('actorId', 'Person', 'Everyone', options?.people ?? [])}
      {select(
        'projectId',
        'Project',
        'All projects',
        (options?.projects ?? []).map((p) => ({ id: p.id, label: p.name })),
      )}
      {day('from', 'From (Lagos date)')}
      {day('to', 'To (Lagos date)')}
    </div>
  );
}

/**
 * Who did what (issue 23): every recorded change, newest first, filtered by person, project and
 * Lagos dates; older events load below by the last row's cursor. The filter lives in the address.
 */
export function AuditLog({ filter, onChange }: { filter: AuditFilter; onChange: (next: AuditFilter) => void }) {
  const id = useId();
  const log = useAuditEvents(filter);
  useFailureToast(log.error, 'Failed to load the audit log');
  const events = log.data?.pages.flatMap((p) => p.events) ?? [];
  const names = Object.assign({}, ...(log.data?.pages.map((p) => p.names) ?? [])) as Record<string, string>;
  const filtered = Object.values(filter).some(Boolean);

  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-semibold">
            Changes
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Every change to clients, projects, reports, timelines, messages and blog posts: who, when, from where, and
            what.
          </p>
        </div>
        <a
          href={auditCsvUrl(filter)}
          download
          className={clsx(buttonClass('secondary'), 'inline-flex items-center gap-2')}
        >
          <Download className="size-4" aria-hidden="true" />
          Download CSV
        </a>
      </div>
      <Filters filter={filter} onChange={onChange} />

      {log.isPending ? (
        <InlineLoading label="Loading the audit log..." />
      ) : log.isError && events.length === 0 ? (
        <ErrorState title="Failed to load the audit log" error={log.error} onRetry={() => log.refetch()} />
      ) : events.length === 0 ? (
        <EmptyState
          icon={<History className="size-8" aria-hidden="true" />}
          title={filtered ? 'No changes match these filters' : 'No changes recorded yet'}
          description={
            filtered ? 'Choose another person, project or dates.' : 'Changes appear here as soon as someone makes one.'
          }
        />
      ) : (
        <div aria-busy={log.isFetching}>
          <ul className="grid gap-2 md:hidden" aria-label="Changes, newest first">
            {events.map((e) => (
              <li key={e.id} className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
                <p className="flex flex-wrap justify-between gap-2">
                  <When at={e.at} />
                  <span className="font-mono text-xs">{e.action}</span>
                </p>
                <p className="mt-1 font-medium break-words">{e.actorLabel}</p>
                <p className="text-xs text-slate-600 dark:text-slate-300">
                  from <span className="font-mono break-all">{e.address ?? 'no address'}</span>
                </p>
                <div className="mt-2">
                  <Changes event={e} names={names} />
                </div>
              </li>
            ))}
          </ul>
          <table className="hidden w-full border-collapse text-left text-sm md:table">
            <TableHead caption="Changes, newest first" headings={['When', 'Who', 'Address', 'Action', 'What changed']} />
            <tbody>
              {events.map((e) => (
                <tr key={e.id} className="border-b border-slate-200 align-top last:border-0 dark:border-slate-800">
                  <td className="py-2 pr-3 whitespace-nowrap">
                    <When at={e.at} />
                  </td>
                  <td className="py-2 pr-3 break-words">{e.actorLabel}</td>
                  <td className="py-2 pr-3 font-mono text-xs break-all">{e.address ?? ''}</td>
                  <td className="py-2 pr-3 font-mono text-xs">{e.action}</td>
                  <td className="py-2">
                    <Changes event={e} names={names} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {log.isError ? (
            <ErrorState title="Failed to load older changes" error={log.error} onRetry={() => log.fetchNextPage()} />
          ) : null}
          {log.hasNextPage ? (
            <button
              type="button"
              className={clsx(buttonClass('secondary'), 'mt-3')}
              disabled={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              {log.isFetchingNextPage ? 'Loading older changes...' : 'Show older changes'}
            </button>
          ) : null}
        </div>
      )}
    </section>
  );
}
