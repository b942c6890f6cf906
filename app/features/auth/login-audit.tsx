import { useId } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { Ban, CheckCircle2, Clock, KeyRound, ShieldAlert, UserX, XCircle, type LucideIcon } from 'lucide-react';
import { LOGIN_RESULT_VALUES, type AuditResponse } from '../../../common/schemas/auth.ts';
import { EmptyState, ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { buttonClass } from '../../components/button-class.ts';
import { useFailureToast } from '../../components/portal/notify.ts';
import { FilterSelect } from '../../components/ui/filter-select.tsx';
import { Pager } from '../../components/ui/pager.tsx';
import { retryUnlessClientError } from '../../lib/query-retry.ts';
import { fetchLoginAudit } from './auth-api.ts';
import { formatDateTimeSeconds } from '../../../common/dates.ts';

export type LoginResultValue = (typeof LOGIN_RESULT_VALUES)[number];
type Attempt = AuditResponse['attempts'][number];

/** What each audited result means, in words staff read at a glance; an icon as well as a colour. */
const LOGIN_RESULT_LABELS: Record<LoginResultValue, { label: string; icon: LucideIcon; tone: 'good' | 'wait' | 'bad' }> = {
  success: { label: 'Signed in', icon: CheckCircle2, tone: 'good' },
  'mfa-pending': { label: 'Password right, code asked', icon: Clock, tone: 'wait' },
  'wrong-password': { label: 'Wrong password', icon: XCircle, tone: 'bad' },
  'unknown-account': { label: 'Unknown account', icon: UserX, tone: 'bad' },
  'password-not-set': { label: 'Password not set yet', icon: KeyRound, tone: 'bad' },
  'blocked-address': { label: 'Address not allowed', icon: Ban, tone: 'bad' },
  'rate-limited': { label: 'Too many attempts', icon: ShieldAlert, tone: 'bad' },
  'wrong-second-factor': { label: 'Wrong code', icon: XCircle, tone: 'bad' },
  'archived-account': { label: 'Account archived', icon: Ban, tone: 'bad' },
  'deactivated-account': { label: 'Account deactivated', icon: Ban, tone: 'bad' },
};

const TONES = {
  good: 'border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-300 dark:bg-emerald-950 dark:text-emerald-100',
  wait: 'border-amber-700 bg-amber-50 text-amber-900 dark:border-amber-300 dark:bg-amber-950 dark:text-amber-100',
  bad: 'border-red-700 bg-red-50 text-red-900 dark:border-red-300 dark:bg-red-950 dark:text-red-100',
} as const;

/** The wide table's columns; the last has no gap after it. */
const COLUMNS = ['Time', 'Address', 'Account', 'Result'] as const;

export const isLoginResult = (value: string | null): value is LoginResultValue => !!value && (LOGIN_RESULT_VALUES as readonly string[]).includes(value);

function ResultBadge({ result }: { result: LoginResultValue }) {
  const { label, icon: Icon, tone } = LOGIN_RESULT_LABELS[result];
  return (
    <span className={clsx('inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold whitespace-nowrap', TONES[tone])}>
      <Icon className="size-3.5" aria-hidden="true" />
      {label}
    </span>
  );
}

const portalLabel = (portal: Attempt['portal']) => (portal === 'admin' ? 'Admin login' : 'Client login');

function When({ at }: { at: string }) {
  return <time dateTime={at}>{formatDateTimeSeconds(at)}</time>;
}

/**
 * The login audit (GET /auth/audit): every sign-in attempt, newest first, a page at a time, with a
 * filter by result. The page and filter live in the address, so reload and back keep them.
 */
export function LoginAudit({ page, result, onChange }: { page: number; result: LoginResultValue | null; onChange: (next: { page: number; result: LoginResultValue | null }) => void }) {
  const id = useId();
  const audit = useQuery({
    queryKey: ['auth', 'audit', page, result ?? 'all'],
    queryFn: ({ signal }) => fetchLoginAudit({ page, result: result ?? undefined }, signal),
    placeholderData: keepPreviousData,
    retry: retryUnlessClientError,
  });
  useFailureToast(audit.error, 'Failed to load the login audit');
  const data = audit.data;
  const pages = data ? Math.max(1, Math.ceil(data.pagination.total / data.pagination.pageSize)) : 1;

  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="text-lg font-semibold">
            Sign-in attempts
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-300">Every attempt on the client and admin login screens, allowed or not, newest first.</p>
        </div>
        <FilterSelect
          className="w-full sm:w-64"
          label="Result"
          allLabel="All results"
          value={result}
          values={LOGIN_RESULT_VALUES}
          optionLabel={(value) => LOGIN_RESULT_LABELS[value].label}
          onChange={(value) => onChange({ page: 1, result: isLoginResult(value) ? value : null })}
        />
      </div>

      {audit.isPending ? (
        <InlineLoading label="Loading sign-in attempts..." />
      ) : audit.isError && !data ? (
        <ErrorState title="Failed to load the login audit" error={audit.error} onRetry={() => audit.refetch()} />
      ) : data && data.attempts.length === 0 && page > 1 ? (
        <EmptyState title="This page is empty" description={`There are ${data.pagination.total} attempts, fewer than this page would start at.`}>
          <button type="button" className={`${buttonClass('secondary')} mt-2`} onClick={() => onChange({ page: 1, result })}>
            Go to the first page
          </button>
        </EmptyState>
      ) : !data || data.attempts.length === 0 ? (
        <EmptyState
          icon={<ShieldAlert className="size-8" aria-hidden="true" />}
          title={result ? 'No sign-in attempts with this result' : 'No sign-in attempts yet'}
          description={result ? 'Choose another result, or all results.' : 'Attempts appear here as soon as someone uses a login screen.'}
        />
      ) : (
        <div aria-busy={audit.isFetching} className={clsx(audit.isPlaceholderData && 'opacity-60')}>
          {audit.isError ? <ErrorState title="Failed to load the login audit" error={audit.error} onRetry={() => audit.refetch()} /> : null}
          {/* Phones: one card per attempt (four columns do not fit 390 px). */}
          <ul className="grid gap-2 md:hidden" aria-label="Sign-in attempts">
            {data.attempts.map((a) => (
              <li key={a._id} className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <When at={a.at} />
                  <ResultBadge result={a.result} />
                </div>
                <p className="mt-1 font-medium break-all">{a.account || '(empty)'}</p>
                <p className="text-xs text-slate-600 dark:text-slate-300">
                  {portalLabel(a.portal)} · from <span className="font-mono break-all">{a.ip}</span>
                </p>
              </li>
            ))}
          </ul>
          <table className="hidden w-full border-collapse text-left text-sm md:table">
            <caption className="sr-only">Sign-in attempts, newest first</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-600">
                {COLUMNS.map((column, i) => (
                  <th key={column} scope="col" className={i < COLUMNS.length - 1 ? 'py-2 pr-3 font-semibold' : 'py-2 font-semibold'}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.attempts.map((a) => (
                <tr key={a._id} className="border-b border-slate-200 align-top last:border-0 dark:border-slate-800">
                  <td className="py-2 pr-3 whitespace-nowrap">
                    <When at={a.at} />
                  </td>
                  <td className="py-2 pr-3 font-mono text-xs break-all">{a.ip}</td>
                  <td className="py-2 pr-3">
                    <span className="block font-medium break-all">{a.account || '(empty)'}</span>
                    <span className="block text-xs text-slate-600 dark:text-slate-300">{portalLabel(a.portal)}</span>
                  </td>
                  <td className="py-2">
                    <ResultBadge result={a.result} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager
            label="Pages of sign-in attempts"
            page={page}
            pages={pages}
            onPage={(p) => onChange({ page: p, result })}
            status={`Page ${data.pagination.page} of ${pages} · ${data.pagination.total === 1 ? '1 attempt' : `${data.pagination.total} attempts`}`}
            busy={audit.isFetching}
            hasNext={data.pagination.hasMore}
          />
        </div>
      )}
    </section>
  );
}
