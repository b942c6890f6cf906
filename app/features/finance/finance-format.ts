import { AlertTriangle, CheckCircle2, CircleDot, Clock, FilePen, Undo2 } from 'lucide-react';
import { formatKobo } from '../../../common/money.ts';
import { INVOICE_POSITION_LABELS, type Invoice } from '../../../common/schemas/invoices.ts';
import type { StatusLook } from '../../components/ui/status-badge.tsx';
import { ApiRequestError } from '../../lib/api.ts';

/** Kobo text as a bigint (the answers carry kobo as decimal text, never as numbers). */
export const kobo = (text: string): bigint => BigInt(text);

/** 'The plan is ₦x short of the contract sum' / '₦x over', or null when the plan adds up. */
export function planBalanceWarning(planBalanceKobo: string): string | null {
  const balance = kobo(planBalanceKobo);
  if (balance === 0n) return null;
  return balance > 0n ? `The plan is ${formatKobo(balance)} short of the contract sum` : `The plan is ${formatKobo(-balance)} over the contract sum`;
}

/** How each invoice position looks: words and an icon always, colour only on top (overdue also has a thick border). */
export const INVOICE_LOOKS: Record<Invoice['status'], StatusLook> = {
  draft: { label: INVOICE_POSITION_LABELS.draft, icon: FilePen, colours: 'border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100' },
  due: { label: INVOICE_POSITION_LABELS.due, icon: Clock, colours: 'border-sky-300 bg-sky-50 text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100' },
  overdue: { label: INVOICE_POSITION_LABELS.overdue, icon: AlertTriangle, colours: 'border-2 border-red-700 bg-red-50 text-red-900 uppercase dark:border-red-400 dark:bg-red-950 dark:text-red-100' },
  'part-paid': { label: INVOICE_POSITION_LABELS['part-paid'], icon: CircleDot, colours: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100' },
  paid: { label: INVOICE_POSITION_LABELS.paid, icon: CheckCircle2, colours: 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100' },
  credited: { label: INVOICE_POSITION_LABELS.credited, icon: Undo2, colours: 'border-violet-300 bg-violet-50 text-violet-900 dark:border-violet-700 dark:bg-violet-950 dark:text-violet-100' },
};

/** An invoice's name in headings and button labels: its number, or 'Draft invoice (milestone)'. */
export const invoiceName = (inv: Invoice): string => inv.number ?? `Draft invoice${inv.milestoneName ? ` (${inv.milestoneName})` : ''}`;

/**
 * The field messages of a refused request keyed by the path under the body ('milestones.0.name',
 * 'lines.1.unitPrice', 'amount'), and the message for the form as a whole.
 */
export function requestErrors(err: unknown): { fields: Record<string, string>; message: string | null } {
  const fields: Record<string, string> = {};
  if (!err) return { fields, message: null };
  if (err instanceof ApiRequestError && Array.isArray(err.details)) {
    for (const d of err.details as Array<{ field?: string; message?: string }>) {
      if (!d.field || !d.message) continue;
      const path = d.field.replace(/^body\.?/, '');
      fields[path] ??= d.message;
    }
  }
  const message = err instanceof Error ? err.message : 'Something went wrong';
  return { fields, message };
}

export const moneyCell = 'whitespace-nowrap text-right tabular-nums';
export const linkClass = 'text-brand-700 underline underline-offset-2 dark:text-sky-300';
