import type { TestApp } from './test-app.ts';

// Payment plan fixtures (issue 26) made through the API as staff: settings, a plan, drafts, issued invoices.

type Headers = Record<string, string>;

export const FINANCE_SETTINGS = {
  invoicePrefix: 'INV',
  creditNotePrefix: 'CN',
  vatRate: '7.5',
  paymentTermsDays: 30,
  taxId: '12345678-0001',
  bankName: 'Example Bank',
  bankAccountName: 'Kora Delta Engineering & Logistics Ltd',
  bankAccountNumber: '0123456789',
};

async function call(t: TestApp, headers: Headers, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, expected = 200) {
  const res = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode !== expected) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The finance settings an invoice needs before it is issued (TIN and bank details). */
export const saveFinanceSettings = (t: TestApp, staff: Headers, overrides: Partial<typeof FINANCE_SETTINGS> = {}) =>
  call(t, staff, 'PUT', '/api/finance/settings', { ...FINANCE_SETTINGS, ...overrides });

/** Replaces a project's plan; answers the project's finance. */
export const putPlan = (t: TestApp, staff: Headers, projectId: string, milestones: unknown[]) => call(t, staff, 'PUT', `/api/finance/project/${projectId}/plan`, { milestones });

/** A draft invoice on a project (lines of its own unless a milestone is given). */
export async function draftInvoice(t: TestApp, staff: Headers, projectId: string, body: Record<string, unknown> = { lines: [{ description: 'Site survey', quantity: 1, unitPrice: '1,000,000.00' }] }) {
  return (await call(t, staff, 'POST', `/api/finance/project/${projectId}/invoices`, body, 201)).invoice as { _id: string; lines: Array<{ _id: string }>; grossKobo: string };
}

/** A draft, issued: answers the issued invoice. */
export async function issuedInvoice(t: TestApp, staff: Headers, projectId: string, body?: Record<string, unknown>) {
  const draft = await draftInvoice(t, staff, projectId, body);
  return (await call(t, staff, 'POST', `/api/invoices/${draft._id}/issue`)).invoice as {
    _id: string;
    number: string;
    lines: Array<{ _id: string; netKobo: string }>;
    grossKobo: string;
    outstandingKobo: string;
    payments: Array<{ _id: string }>;
    creditNotes: Array<{ _id: string }>;
  };
}

/** Records a transfer against an issued invoice; answers the invoice. */
export const recordTransfer = async (t: TestApp, staff: Headers, invoiceId: string, amount: string, receivedOn = '2026-11-20') =>
  (await call(t, staff, 'POST', `/api/invoices/${invoiceId}/payments`, { amount, receivedOn, method: 'bank_transfer', reference: 'TRF-1' }, 201)).invoice;
