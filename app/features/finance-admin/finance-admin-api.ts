import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FinanceOverview, FinanceSettings, FinanceSettingsBody } from '../../../common/schemas/invoices.ts';
import { apiFetch } from '../../lib/api.ts';
import { FINANCE_OVERVIEW_KEY } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

// Staff's finance screens (issue 26): the overview across projects and the invoice settings.

/** Where every issued invoice downloads as CSV (a plain link: the browser saves the file). */
export const FINANCE_CSV_URL = '/api/finance/invoices.csv';

const FINANCE_SETTINGS_KEY = ['finance', 'settings'] as const;
type SettingsResponse = { success: true; settings: FinanceSettings };

/** The figures, the overdue invoices and the payments to check; live invoice and payment events make it stale. */
export function useFinanceOverview() {
  return useQuery({
    queryKey: FINANCE_OVERVIEW_KEY,
    queryFn: ({ signal }) => apiFetch<FinanceOverview>('/finance/overview', { signal, fallbackMessage: 'Failed to load the finance overview' }),
    retry: retryUnlessClientError,
  });
}

export function useFinanceSettings() {
  return useQuery({
    queryKey: FINANCE_SETTINGS_KEY,
    queryFn: ({ signal }) => apiFetch<SettingsResponse>('/finance/settings', { signal, fallbackMessage: 'Failed to load the invoice settings' }),
    retry: retryUnlessClientError,
  });
}

/** Saves the settings; the answer is the settings as stored, put straight into the cache. */
export function useSaveFinanceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FinanceSettingsBody) =>
      apiFetch<SettingsResponse>('/finance/settings', { method: 'PUT', json: body, fallbackMessage: 'Failed to save the invoice settings' }),
    onSuccess: (data) => queryClient.setQueryData(FINANCE_SETTINGS_KEY, data),
  });
}
