import { useState } from 'react';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { buttonClass } from '../../components/button-class.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { useRevision, useRevisions } from './site-content-api.ts';

type Doc = Record<string, unknown>;

/** Every leaf of a document by its path ('social.facebook', 'values.0.title'), as text. */
function flatten(value: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path}.${k}` : k, out);
  } else if (path) out.set(path, value === undefined || value === null ? '' : String(value));
  return out;
}

/** The fields a revision changed, each with its text before and after. */
function changedFields(before: Doc | null, after: Doc): { field: string; before: string; after: string }[] {
  const a = flatten(before ?? {});
  const b = flatten(after);
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).map((field) => ({ field, before: a.get(field) ?? '', after: b.get(field) ?? '' }));
}

const SOURCE = { seed: 'Starting content', publish: 'Published', schedule: 'Published on schedule' } as const;

function Comparison({ section, id }: { section: string; id: string }) {
  const { data, isPending, error, refetch } = useRevision(section, id);
  if (isPending) return <InlineLoading label="Loading the revision…" />;
  if (error || !data) return <ErrorState title="The revision could not be loaded" error={error} onRetry={() => void refetch()} />;
  const rows = changedFields(data.previous?.document ?? null, data.revision.document);
  const caption = data.previous ? `What revision ${data.revision.number} changed, beside revision ${data.previous.number}` : `Revision ${data.revision.number}: the starting content`;
  return (
    // Fixed columns that wrap their words: the table fits a phone without a sideways scroll.
    <div className="mt-3">
      <table className="w-full table-fixed border-collapse text-left text-sm">
        <caption className="mb-2 text-left font-semibold">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-300 dark:border-slate-700">
            <th scope="col" className="w-1/4 py-2 pr-2">Field</th>
            <th scope="col" className="py-2 pr-2">Before</th>
            <th scope="col" className="py-2">After</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3} className="py-2">No field changed.</td>
            </tr>
          ) : (
            rows.slice(0, 200).map((r) => (
              <tr key={r.field} className="border-b border-slate-200 align-top dark:border-slate-800">
                <th scope="row" className="py-2 pr-2 font-mono text-xs break-all">{r.field}</th>
                <td className="py-2 pr-2 break-words text-red-900 dark:text-red-200"><del className="no-underline">{r.before || '(empty)'}</del></td>
                <td className="py-2 break-words text-emerald-900 dark:text-emerald-200"><ins className="no-underline">{r.after || '(empty)'}</ins></td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Every publish of the section, newest first: who and when, what changed, and 'Restore as draft'. */
export function RevisionHistory({ section, onRestore, restoring }: { section: string; onRestore: (id: string, number: number) => void; restoring: boolean }) {
  const { data, isPending, error, refetch } = useRevisions(section);
  const [open, setOpen] = useState<string | null>(null);
  if (isPending) return <InlineLoading label="Loading the history…" />;
  if (error || !data) return <ErrorState title="The history could not be loaded" error={error} onRetry={() => void refetch()} />;
  return (
    <ol className="space-y-3">
      {data.revisions.map((r) => (
        <li key={r.id} className="rounded-md border border-slate-300 p-3 dark:border-slate-700">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <p className="min-w-0 flex-1">
              <span className="font-semibold">Revision {r.number}</span> · {r.source === 'seed' ? SOURCE.seed : `${SOURCE[r.source]} by ${r.publishedBy}`} ·{' '}
              <time dateTime={r.publishedAt}>{formatDateTimeWithZone(r.publishedAt)}</time>
            </p>
            <button type="button" className={buttonClass('secondary')} aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
              {open === r.id ? 'Hide changes' : 'Show changes'}
              <span className="sr-only"> of revision {r.number}</span>
            </button>
            <button type="button" className={buttonClass('secondary')} disabled={restoring} onClick={() => onRestore(r.id, r.number)}>
              Restore as draft<span className="sr-only"> (revision {r.number})</span>
            </button>
          </div>
          {open === r.id ? <Comparison section={section} id={r.id} /> : null}
        </li>
      ))}
    </ol>
  );
}
