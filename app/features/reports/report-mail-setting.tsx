import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReportMailSettingResponse } from '../../../common/schemas/reports.ts';
import { ErrorState, InlineLoading } from '../../components/portal/empty-state.tsx';
import { toastFailure } from '../../components/portal/notify.ts';
import { toast } from '../../components/ui/toast.tsx';
import { apiFetch } from '../../lib/api.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

const REPORT_MAIL_KEY = ['reports', 'mail-setting'] as const;

/**
 * The Account dialog's section for clients: whether a new progress report is e-mailed (at most one
 * mail per project per 15 minutes). A checkbox that saves as soon as it is changed.
 */
export function ReportMailSetting() {
  const id = useId();
  const queryClient = useQueryClient();
  // What the person just chose, shown at once: the mutation's own state reaches React a task later
  // (TanStack Query notifies on a timer), so a controlled box would flip back for that moment.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const setting = useQuery({
    queryKey: REPORT_MAIL_KEY,
    queryFn: ({ signal }) => apiFetch<ReportMailSettingResponse>('/reports/mail-setting', { signal, fallbackMessage: 'Failed to load your e-mail settings' }),
    retry: retryUnlessClientError,
  });
  const save = useMutation({
    mutationFn: (reportMail: boolean) =>
      apiFetch<ReportMailSettingResponse>('/reports/mail-setting', { method: 'PUT', json: { reportMail }, fallbackMessage: 'Failed to save your e-mail settings' }),
    onSuccess: (res) => {
      queryClient.setQueryData(REPORT_MAIL_KEY, res);
      toast({ title: res.reportMail ? 'Report e-mails turned on' : 'Report e-mails turned off' });
    },
    onError: (err) => toastFailure('Failed to save your e-mail settings', err),
  });
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        E-mails
      </h3>
      {setting.isPending ? (
        <InlineLoading label="Loading your e-mail settings..." />
      ) : setting.isError ? (
        <ErrorState title="Failed to load your e-mail settings" error={setting.error} onRetry={() => setting.refetch()} />
      ) : (
        <div className="flex items-start gap-3">
          <input
            id={`${id}-report-mail`}
            type="checkbox"
            className="mt-1 size-5 shrink-0 accent-brand-700 dark:accent-sky-300"
            checked={chosen ?? setting.data.reportMail}
            disabled={save.isPending}
            onChange={(e) => {
              const next = e.target.checked;
              setChosen(next);
              // Settled either way: the saved value (success) or the one before (failure) shows again.
              save.mutate(next, { onSettled: () => setChosen(null) });
            }}
            aria-describedby={`${id}-report-mail-hint`}
          />
          <div>
            <label htmlFor={`${id}-report-mail`} className="font-medium">
              E-mail me when a progress report is added
            </label>
            <p id={`${id}-report-mail-hint`} className="text-sm text-slate-700 dark:text-slate-300">
              At most one e-mail per project every 15 minutes, with a link to the report.
            </p>
          </div>
        </div>
      )}
    </section>
  );
}
