import '../zod-setup.ts';
import { z } from 'zod';
import { parseNairaToKobo } from '../money.ts';
import { multiline } from './line-endings.ts';
import { okResponse } from './ok-response.ts';
import { singleLineText, storableText } from './text.ts';

// Change orders (issue 25, decision 294). Amounts travel as decimal naira text ('4500000.50') and
// as kobo text ('450000050'); never as a floating-point number.

export const CHANGE_ORDER_STATUSES = ['draft', 'sent', 'approved', 'declined', 'withdrawn'] as const;
export type ChangeOrderStatus = (typeof CHANGE_ORDER_STATUSES)[number];

export const CHANGE_ORDER_STATUS_LABELS: Record<ChangeOrderStatus, string> = {
  draft: 'Draft',
  sent: 'Waiting for the client',
  approved: 'Approved',
  declined: 'Declined',
  withdrawn: 'Withdrawn',
};

/** The largest file attached to a change order (decision 296). */
export const CHANGE_ORDER_ATTACHMENT_MAX_BYTES = 25 * 1024 * 1024;
/** How many files one change order holds (decision 296). */
export const CHANGE_ORDER_ATTACHMENTS_MAX = 10;

/** A schedule impact beyond ten years either way is a typing mistake. */
const CHANGE_ORDER_DAYS_MAX = 3650;

/** 'CO-001' for change order 1 of its project. */
export const changeOrderNumber = (n: number) => `CO-${String(n).padStart(3, '0')}`;

/** A schedule impact as the panel, mails and certificate show it: '+3 days', '-1 day', '0 days'. */
export const scheduleImpactLabel = (n: number) => `${n > 0 ? '+' : ''}${n} day${Math.abs(n) === 1 ? '' : 's'}`;

/** The cost impact as people type it ('4,500,000.50', '-250000'), read to kobo text exactly. */
const costImpact = z.union([storableText(), z.number()]).transform((v, ctx) => {
  const parsed = parseNairaToKobo(String(v), { allowNegative: true });
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.kobo.toString();
});

const scheduleImpact = z.coerce
  .number('Enter the schedule impact in whole days')
  .int('Enter the schedule impact in whole days')
  .min(-CHANGE_ORDER_DAYS_MAX, `At most ${CHANGE_ORDER_DAYS_MAX} days either way`)
  .max(CHANGE_ORDER_DAYS_MAX, `At most ${CHANGE_ORDER_DAYS_MAX} days either way`);

const changeOrderFields = z.object({
  title: singleLineText('Title').min(1, 'Title is required').max(200),
  description: multiline(storableText()).trim().min(1, 'Say what changes').max(10000),
  /** Naira with up to two decimals; negative lowers the sum. */
  cost: costImpact,
  /** Whole days; negative brings the end date forward. */
  scheduleDays: scheduleImpact,
});

export const createChangeOrderBodySchema = changeOrderFields.strict();
export type CreateChangeOrderBody = z.input<typeof createChangeOrderBodySchema>;

export const updateChangeOrderBodySchema = changeOrderFields
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'Nothing to change');
export type UpdateChangeOrderBody = z.input<typeof updateChangeOrderBodySchema>;

export const decideChangeOrderBodySchema = z
  .object({
    decision: z.enum(['approve', 'decline']),
    comment: multiline(storableText()).trim().max(5000).optional().default(''),
  })
  .strict()
  .refine((b) => b.decision === 'approve' || b.comment !== '', { message: 'Say why you decline it', path: ['comment'] });
export type DecideChangeOrderBody = z.input<typeof decideChangeOrderBodySchema>;

export const changeOrderParamsSchema = z.object({ id: z.uuid() });
export const changeOrderProjectParamsSchema = z.object({ projectId: z.uuid() });

export const changeOrderAttachmentParamsSchema = z.object({ id: z.uuid(), attachmentId: z.uuid() });

/** Where an attachment's bytes are downloaded (a plain link: the browser sends the session cookie). */
export const changeOrderAttachmentUrl = (changeOrderId: string, attachmentId: string) => `/api/change-orders/${changeOrderId}/attachments/${attachmentId}/file`;

const changeOrderAttachmentSchema = z.object({
  _id: z.string(),
  fileName: z.string(),
  mimeType: z.string(),
  size: z.number(),
  /** Hex SHA-256 of the file's bytes. */
  sha256: z.string(),
  createdAt: z.string(),
  url: z.string(),
});
export type ChangeOrderAttachment = z.infer<typeof changeOrderAttachmentSchema>;

const changeOrderSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  number: z.number(),
  /** 'CO-001' */
  reference: z.string(),
  title: z.string(),
  description: z.string(),
  /** Kobo as decimal integer text ('450000050'). */
  costKobo: z.string(),
  scheduleDays: z.number(),
  status: z.enum(CHANGE_ORDER_STATUSES),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decidedByName: z.string().nullable(),
  decisionComment: z.string().nullable(),
  budgetBeforeKobo: z.string().nullable(),
  budgetAfterKobo: z.string().nullable(),
  endDateBefore: z.string().nullable(),
  endDateAfter: z.string().nullable(),
  /** Files attached while a draft, oldest first; frozen once sent (decision 296). */
  attachments: z.array(changeOrderAttachmentSchema),
});
export type ChangeOrder = z.infer<typeof changeOrderSchema>;

export const changeOrderResponseSchema = okResponse({ changeOrder: changeOrderSchema });

/** The project's contract history: its original sum and end date, every approved change in order, and where it stands now. */
const contractHistorySchema = z.object({
  originalBudgetKobo: z.string(),
  currentBudgetKobo: z.string(),
  originalEndDate: z.string().nullable(),
  currentEndDate: z.string().nullable(),
});
export type ContractHistory = z.infer<typeof contractHistorySchema>;

export const changeOrderListResponseSchema = okResponse({ changeOrders: z.array(changeOrderSchema), history: contractHistorySchema });
export type ChangeOrderListResponse = z.infer<typeof changeOrderListResponseSchema>;
