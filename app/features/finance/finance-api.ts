import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreateInvoiceBody,
  CreditNoteBody,
  ProjectFinance,
  PutPlanBody,
  RecordPaymentBody,
  UpdateInvoiceBody,
  VoidPaymentBody,
} from '../../../common/schemas/invoices.ts';
import { apiFetch } from '../../lib/api.ts';
import { FINANCE_OVERVIEW_KEY, projectFinanceKey } from '../../lib/portal-query-keys.ts';
import { retryUnlessClientError } from '../../lib/query-retry.ts';

/** A project's payment plan, invoices (a client: issued ones), payments and balance (decision 298). */
export function useProjectFinance(projectId: string) {
  return useQuery({
    queryKey: projectFinanceKey(projectId),
    queryFn: ({ signal }) => apiFetch<ProjectFinance>(`/finance/project/${projectId}`, { signal, fallbackMessage: 'Failed to load the payment plan' }),
    retry: retryUnlessClientError,
  });
}

export type FinanceAction =
  | { kind: 'plan'; body: PutPlanBody }
  | { kind: 'create'; body: CreateInvoiceBody }
  | { kind: 'update'; id: string; body: UpdateInvoiceBody }
  | { kind: 'delete'; id: string }
  | { kind: 'issue'; id: string }
  | { kind: 'credit'; id: string; body: CreditNoteBody }
  | { kind: 'pay'; id: string; body: RecordPaymentBody }
  | { kind: 'void'; paymentId: string; body: VoidPaymentBody };

/** Every finance write of one project; the project's finance (and staff's overview) read again after each. */
export function useFinanceAction(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (a: FinanceAction): Promise<unknown> => {
      switch (a.kind) {
        case 'plan':
          return apiFetch(`/finance/project/${projectId}/plan`, { method: 'PUT', json: a.body, fallbackMessage: 'Failed to save the payment plan' });
        case 'create':
          return apiFetch(`/finance/project/${projectId}/invoices`, { method: 'POST', json: a.body, fallbackMessage: 'Failed to draft the invoice' });
        case 'update':
          return apiFetch(`/invoices/${a.id}`, { method: 'PATCH', json: a.body, fallbackMessage: 'Failed to save the invoice' });
        case 'delete':
          return apiFetch(`/invoices/${a.id}`, { method: 'DELETE', fallbackMessage: 'Failed to delete the draft' });
        case 'issue':
          return apiFetch(`/invoices/${a.id}/issue`, { method: 'POST', fallbackMessage: 'Failed to issue the invoice' });
        case 'credit':
          return apiFetch(`/invoices/${a.id}/credit-notes`, { method: 'POST', json: a.body, fallbackMessage: 'Failed to issue the credit note' });
        case 'pay':
          return apiFetch(`/invoices/${a.id}/payments`, { method: 'POST', json: a.body, fallbackMessage: 'Failed to record the payment' });
        case 'void':
          return apiFetch(`/payments/${a.paymentId}/void`, { method: 'POST', json: a.body, fallbackMessage: 'Failed to void the payment' });
      }
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: FINANCE_OVERVIEW_KEY });
      return queryClient.invalidateQueries({ queryKey: projectFinanceKey(projectId) });
    },
  });
}

/** The client's 'Pay online': Paystack's checkout address for the invoice's outstanding amount. */
export function usePayOnline() {
  return useMutation({
    mutationFn: (invoiceId: string) =>
      apiFetch<{ success: true; authorizationUrl: string }>(`/invoices/${invoiceId}/pay-online`, { method: 'POST', fallbackMessage: 'Failed to open the online payment' }),
  });
}
