import '../zod-setup.ts';
import { z } from 'zod';
import { BASIS_POINTS, INVOICE_STATUSES, LINE_QUANTITY_MAX } from '../invoice-math.ts';
import { parseNairaToKobo } from '../money.ts';
import { multiline } from './line-endings.ts';
import { okResponse } from './ok-response.ts';
import { singleLineText, storableText } from './text.ts';

// The payment plan (issue 26, decision 298). Amounts travel as decimal naira text in requests
// ('4,500,000.50') and as kobo decimal text in answers ('450000050'), never as floating-point numbers.

/** A naira amount as people type it, read to kobo text exactly (more than nothing unless `allowZero`). */
const nairaAmount = (what: string, { allowZero = false } = {}) =>
  z.union([storableText(), z.number()]).transform((v, ctx) => {
    const parsed = parseNairaToKobo(String(v));
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    if (!allowZero && parsed.kobo === 0n) {
      ctx.addIssue({ code: 'custom', message: `${what} must be more than nothing` });
      return z.NEVER;
    }
    return parsed.kobo.toString();
  });

const PERCENT = /^(\d{1,3})(?:\.(\d{1,2}))?$/;

/** '25', '12.5', '12.50 %' to basis points (2500, 1250), exactly; 0 < share ≤ 100 %. */
export function parsePercentToBp(text: string): { ok: true; bp: number } | { ok: false; message: string } {
  const m = PERCENT.exec(text.trim().replace(/\s*%$/, ''));
  if (!m) return { ok: false, message: 'Enter a share such as 25 or 12.5 (per cent, at most two decimals)' };
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (bp <= 0 || bp > BASIS_POINTS) return { ok: false, message: 'A share is more than 0 % and at most 100 %' };
  return { ok: true, bp };
}

/** Basis points as a percentage people read: 750 → '7.5 %', 2500 → '25 %', 1234 → '12.34 %'. */
export function formatBp(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const rest = String(bp % 100).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''} %`;
}

const percentShare = z.union([storableText(), z.number()]).transform((v, ctx) => {
  const parsed = parsePercentToBp(String(v));
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.bp;
});

const isoDay = z.iso.date('Enter a date as YYYY-MM-DD');

/** How many milestones a plan holds. */
export const MILESTONES_MAX = 50;
/** How many timeline tasks one milestone depends on at most. */
export const DEPENDENCIES_MAX = 20;
/** How many lines an invoice holds. */
const INVOICE_LINES_MAX = 100;

const dependency = z.object({ timelineId: z.uuid(), task: singleLineText('Task').min(1).max(500) }).strict();

const milestoneInput = z
  .object({
    /** An existing milestone's id (kept); none for a new one. */
    id: z.uuid().optional(),
    name: singleLineText('Name').min(1, 'Name the milestone').max(200),
    /** Exactly one of amount (naira) or share (per cent of the contract sum). */
    amount: nairaAmount('The amount').optional(),
    share: percentShare.optional(),
    dueDate: isoDay.nullable().optional().default(null),
    dependsOn: z.array(dependency).max(DEPENDENCIES_MAX).optional().default([]),
  })
  .strict()
  .refine((m) => (m.amount === undefined) !== (m.share === undefined), { message: 'Give either an amount or a share of the contract sum', path: ['amount'] });

export const putPlanBodySchema = z
  .object({ milestones: z.array(milestoneInput).max(MILESTONES_MAX, `At most ${MILESTONES_MAX} milestones`) })
  .strict()
  .refine((b) => b.milestones.reduce((s, m) => s + (m.share ?? 0), 0) <= BASIS_POINTS, { message: 'The shares add up to more than 100 %', path: ['milestones'] });
export type PutPlanBody = z.input<typeof putPlanBodySchema>;

const lineInput = z
  .object({
    description: multiline(storableText()).trim().min(1, 'Describe the line').max(2000),
    quantity: z.coerce.number('Enter a whole quantity').int('Enter a whole quantity').min(1, 'At least 1').max(LINE_QUANTITY_MAX, `At most ${LINE_QUANTITY_MAX.toLocaleString('en-NG')}`),
    unitPrice: nairaAmount('The unit price', { allowZero: true }),
    /** VAT applies at the rate of the settings; false for an exempt line. */
    vatable: z.boolean().optional().default(true),
  })
  .strict();

const invoiceFields = z.object({
  lines: z.array(lineInput).min(1, 'An invoice needs at least one line').max(INVOICE_LINES_MAX, `At most ${INVOICE_LINES_MAX} lines`),
  notes: multiline(storableText()).trim().max(2000),
  /** Empty: the issue date plus the payment terms. */
  dueDate: isoDay.nullable(),
});

/** A draft invoice: on a milestone (its one line made from the milestone when no lines are given) or with lines of its own. */
export const createInvoiceBodySchema = invoiceFields
  .partial()
  .extend({ milestoneId: z.uuid().nullable().optional().default(null) })
  .strict()
  .refine((b) => b.milestoneId !== null || (b.lines?.length ?? 0) > 0, { message: 'Choose a milestone or add a line', path: ['lines'] });
export type CreateInvoiceBody = z.input<typeof createInvoiceBodySchema>;

export const updateInvoiceBodySchema = invoiceFields
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change');
export type UpdateInvoiceBody = z.input<typeof updateInvoiceBodySchema>;

export const creditNoteBodySchema = z
  .object({
    reason: multiline(storableText()).trim().min(1, 'Say why the invoice is credited').max(2000),
    lines: z
      .array(z.object({ invoiceLineId: z.uuid(), amount: nairaAmount('The credit') }).strict())
      .min(1, 'Credit at least one line')
      .max(INVOICE_LINES_MAX),
  })
  .strict();
export type CreditNoteBody = z.input<typeof creditNoteBodySchema>;

const PAYMENT_METHODS = ['bank_transfer', 'paystack', 'cheque', 'cash'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  paystack: 'Paid online (Paystack)',
  cheque: 'Cheque',
  cash: 'Cash',
};

export const recordPaymentBodySchema = z
  .object({
    amount: nairaAmount('The amount'),
    receivedOn: isoDay,
    /** Staff record transfers, cheques and cash; Paystack payments are recorded by the webhook only. */
    method: z.enum(['bank_transfer', 'cheque', 'cash']),
    reference: singleLineText('Reference').max(200).optional().default(''),
    note: multiline(storableText()).trim().max(2000).optional().default(''),
  })
  .strict();
export type RecordPaymentBody = z.input<typeof recordPaymentBodySchema>;

export const voidPaymentBodySchema = z.object({ reason: multiline(storableText()).trim().min(1, 'Say why the payment is voided').max(2000) }).strict();
export type VoidPaymentBody = z.input<typeof voidPaymentBodySchema>;

export const financeSettingsBodySchema = z
  .object({
    invoicePrefix: z.string().trim().regex(/^[A-Z0-9]{1,10}$/, 'Use 1 to 10 capital letters or digits'),
    creditNotePrefix: z.string().trim().regex(/^[A-Z0-9]{1,10}$/, 'Use 1 to 10 capital letters or digits'),
    /** Per cent, as '7.5'; 0 is allowed (no VAT). */
    vatRate: z.union([storableText(), z.number()]).transform((v, ctx) => {
      const s = String(v).trim().replace(/\s*%$/, '');
      if (s === '0' || /^0(\.0{1,2})?$/.test(s)) return 0;
      const parsed = parsePercentToBp(s);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: 'Enter the VAT rate in per cent, such as 7.5' });
        return z.NEVER;
      }
      return parsed.bp;
    }),
    paymentTermsDays: z.coerce.number('Enter whole days').int('Enter whole days').min(0, 'At least 0 days').max(365, 'At most 365 days'),
    taxId: singleLineText('TIN').max(40),
    bankName: singleLineText('Bank').max(120),
    bankAccountName: singleLineText('Account name').max(200),
    bankAccountNumber: z.string().trim().regex(/^(\d{10})?$/, 'A NUBAN account number has 10 digits'),
  })
  .strict();
export type FinanceSettingsBody = z.input<typeof financeSettingsBodySchema>;

export const financeProjectParamsSchema = z.object({ projectId: z.uuid() });
export const financeIdParamsSchema = z.object({ id: z.uuid() });

const milestoneSchema = z.object({
  _id: z.string(),
  position: z.number(),
  name: z.string(),
  /** Fixed kobo, or null for a share. */
  amountKobo: z.string().nullable(),
  shareBp: z.number().nullable(),
  /** What the milestone comes to against the current contract sum (kobo). */
  resolvedKobo: z.string(),
  dueDate: z.string().nullable(),
  dependsOn: z.array(z.object({ timelineId: z.string(), task: z.string(), timelineTitle: z.string().nullable(), onTimeline: z.boolean(), done: z.boolean() })),
  /** Issued invoices on it, gross less credits (kobo). */
  invoicedKobo: z.string(),
});
export type Milestone = z.infer<typeof milestoneSchema>;

const lineSchema = z.object({
  _id: z.string(),
  description: z.string(),
  quantity: z.number(),
  unitPriceKobo: z.string(),
  vatRateBp: z.number(),
  netKobo: z.string(),
  vatKobo: z.string(),
  /** What is left of the line to credit. */
  remainingNetKobo: z.string(),
});

const creditNoteSchema = z.object({
  _id: z.string(),
  number: z.string(),
  issueDate: z.string(),
  reason: z.string(),
  netKobo: z.string(),
  vatKobo: z.string(),
  grossKobo: z.string(),
  pdfUrl: z.string(),
});

const paymentSchema = z.object({
  _id: z.string(),
  amountKobo: z.string(),
  receivedOn: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string(),
  note: z.string(),
  recordedAt: z.string(),
  voided: z.boolean(),
  voidReason: z.string().nullable(),
  receiptUrl: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const INVOICE_POSITION_LABELS: Record<(typeof INVOICE_STATUSES)[number] | 'draft', string> = {
  draft: 'Draft',
  due: 'Due',
  overdue: 'Overdue',
  'part-paid': 'Part-paid',
  paid: 'Paid',
  credited: 'Credited',
};

const invoiceSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  milestoneId: z.string().nullable(),
  milestoneName: z.string().nullable(),
  /** Null while a draft. */
  number: z.string().nullable(),
  status: z.enum(['draft', ...INVOICE_STATUSES]),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  notes: z.string(),
  netKobo: z.string(),
  vatKobo: z.string(),
  grossKobo: z.string(),
  creditedKobo: z.string(),
  paidKobo: z.string(),
  outstandingKobo: z.string(),
  overpaidKobo: z.string(),
  lines: z.array(lineSchema),
  creditNotes: z.array(creditNoteSchema),
  payments: z.array(paymentSchema),
  /** Null while a draft. */
  pdfUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

const summarySchema = z.object({
  contractSumKobo: z.string(),
  plannedKobo: z.string(),
  /** Contract sum − planned: 0 when the plan adds up, positive unplanned, negative planned past the sum. */
  planBalanceKobo: z.string(),
  /** Issued invoices' gross less credit notes. */
  invoicedKobo: z.string(),
  paidKobo: z.string(),
  outstandingKobo: z.string(),
});

const bankSchema = z.object({ bankName: z.string(), accountName: z.string(), accountNumber: z.string() });

export const projectFinanceResponseSchema = okResponse({
  projectId: z.string(),
  projectName: z.string(),
  summary: summarySchema,
  milestones: z.array(milestoneSchema),
  /** Staff: drafts too; a client: issued invoices only. Newest first. */
  invoices: z.array(invoiceSchema),
  bank: bankSchema,
  vatRateBp: z.number(),
  /** Whether the client can pay online (Paystack is configured). */
  payOnline: z.boolean(),
});
export type ProjectFinance = z.infer<typeof projectFinanceResponseSchema>;

export const invoiceResponseSchema = okResponse({ invoice: invoiceSchema });

export const financeSettingsResponseSchema = okResponse({
  settings: z.object({
    invoicePrefix: z.string(),
    creditNotePrefix: z.string(),
    vatRateBp: z.number(),
    paymentTermsDays: z.number(),
    taxId: z.string(),
    bankName: z.string(),
    bankAccountName: z.string(),
    bankAccountNumber: z.string(),
    updatedAt: z.string().nullable(),
  }),
});
export type FinanceSettings = z.infer<typeof financeSettingsResponseSchema>['settings'];

const overdueRowSchema = z.object({
  invoiceId: z.string(),
  number: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  /** The project's client, for a link to the project on the admin dashboard. */
  clientId: z.string(),
  clientName: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  daysOverdue: z.number(),
  grossKobo: z.string(),
  outstandingKobo: z.string(),
});
export type OverdueRow = z.infer<typeof overdueRowSchema>;

const periodSchema = z.object({ invoicedKobo: z.string(), receivedKobo: z.string() });

export const financeOverviewResponseSchema = okResponse({
  today: z.string(),
  month: periodSchema,
  year: periodSchema,
  outstandingKobo: z.string(),
  overdueKobo: z.string(),
  /** Oldest due date first. */
  overdue: z.array(overdueRowSchema),
  /** Payments Paystack reported with an amount other than the one asked: recorded, never counted (decision 298). */
  flagged: z.array(z.object({ reference: z.string(), invoiceNumber: z.string(), askedKobo: z.string(), paidKobo: z.string(), at: z.string() })),
});
export type FinanceOverview = z.infer<typeof financeOverviewResponseSchema>;

export const payOnlineResponseSchema = okResponse({ authorizationUrl: z.string() });

/** Where an issued invoice's PDF is downloaded. */
export const invoicePdfUrl = (invoiceId: string) => `/api/invoices/${invoiceId}/pdf`;
export const creditNotePdfUrl = (creditNoteId: string) => `/api/credit-notes/${creditNoteId}/pdf`;
export const receiptPdfUrl = (paymentId: string) => `/api/payments/${paymentId}/receipt`;
