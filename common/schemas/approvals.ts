import '../zod-setup.ts';
import { z } from 'zod';
import { storableText } from './text.ts';
import { multiline } from './line-endings.ts';
import { okResponse } from './ok-response.ts';

// Approvals (issue 25, decision 293): staff ask the client to approve a subject; the client's
// approver decides once; each decision has a PDF certificate.

const APPROVAL_NOTE_MAX = 2000;
const APPROVAL_COMMENT_MAX = 2000;

const note = multiline(storableText()).trim().max(APPROVAL_NOTE_MAX);

const approvalSubjectSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('report'), reportId: z.uuid('Choose a report') }),
  z.object({ type: z.literal('milestone'), timelineId: z.uuid('Choose a timeline'), taskIndex: z.int().min(0).max(999) }),
  z.object({ type: z.literal('document'), documentVersionId: z.uuid('Choose a document version') }),
]);
export type ApprovalSubject = z.infer<typeof approvalSubjectSchema>;

export const createApprovalBodySchema = z.object({
  subject: approvalSubjectSchema,
  dueOn: z.iso.date('Due date: use a date such as 2026-01-31'),
  note: note.optional().default(''),
});
export type CreateApprovalBody = z.input<typeof createApprovalBodySchema>;

export const decideApprovalBodySchema = z
  .object({
    decision: z.enum(['approved', 'rejected']),
    comment: note.max(APPROVAL_COMMENT_MAX).optional().default(''),
  })
  .refine((b) => b.decision === 'approved' || b.comment.length > 0, { path: ['comment'], message: 'Say why you reject it: a comment is required' });
export type DecideApprovalBody = z.input<typeof decideApprovalBodySchema>;

export const approvalIdParamsSchema = z.object({ id: z.uuid() });
export const approvalProjectParamsSchema = z.object({ projectId: z.uuid() });

const approvalStatusSchema = z.enum(['pending', 'approved', 'rejected', 'withdrawn']);

const approvalSchema = z.object({
  _id: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  subjectType: z.enum(['report', 'milestone', 'document']),
  /** The subject's own id: report id, timeline id, document version id. */
  subjectId: z.string(),
  taskIndex: z.number().nullable(),
  subjectTitle: z.string(),
  subjectVersion: z.string(),
  subjectSha256: z.string(),
  note: z.string(),
  dueOn: z.string(),
  overdue: z.boolean(),
  status: approvalStatusSchema,
  requestedByName: z.string(),
  requestedAt: z.string(),
  decidedByName: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decidedAddress: z.string().nullable(),
  decisionComment: z.string().nullable(),
  decidedSha256: z.string().nullable(),
  closedAt: z.string().nullable(),
  certificateUrl: z.string().nullable(),
});
export type Approval = z.infer<typeof approvalSchema>;

export const approvalResponseSchema = okResponse({ approval: approvalSchema });
export const approvalListResponseSchema = okResponse({ approvals: z.array(approvalSchema) });

/** One thing waiting on the viewer's side ('Waiting on you'), from any source (approvals, change orders, ...). */
const waitingItemSchema = z.object({
  /** The source: 'approval', later 'change-order'. */
  kind: z.string(),
  id: z.string(),
  clientId: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  title: z.string(),
  /** What waits: 'decide' (client), 'awaiting-client', 'rejected', ... (staff). */
  state: z.string(),
  /** Since when it waits (oldest first). */
  since: z.string(),
  dueOn: z.string().nullable(),
  overdue: z.boolean(),
  comment: z.string().nullable(),
});
export type WaitingItem = z.infer<typeof waitingItemSchema>;
export const waitingResponseSchema = okResponse({ items: z.array(waitingItemSchema) });

export const approvalUrls = {
  certificate: (id: string) => `/api/approvals/${id}/certificate`,
};

export type ApprovalResponse = z.infer<typeof approvalResponseSchema>;
export type ApprovalListResponse = z.infer<typeof approvalListResponseSchema>;
export type WaitingResponse = z.infer<typeof waitingResponseSchema>;
