import '../zod-setup.ts';
import { z } from 'zod';
import { memberGrants, type MemberRole } from '../permissions.ts';

// Live changes of the portal besides messages (GET /api/messages/stream, SSE event `change`).
// Each event names what changed by ids only; the browser reads the affected lists again.

export const PORTAL_CHANGE_TYPES = [
  'project.created',
  'project.status',
  'project.updated',
  'timeline.created',
  'timeline.updated',
  'report.created',
  'report.updated',
  'client.status',
  'client.updated',
  // Approvals (decision 293): asked, decided, withdrawn or closed by staff.
  'approval.requested',
  'approval.decided',
  'approval.updated',
  'document.created',
  'document.updated',
  'document.internal',
  // Change orders (decision 294): drafts and their edits are staff-only; sending, withdrawing and deciding reach the client too.
  'change-order.created',
  'change-order.updated',
  'change-order.sent',
  'change-order.withdrawn',
  'change-order.decided',
  // The payment plan (decision 298): drafts are staff-only; the plan, issued invoices and their
  // payments and credit notes reach the client's people who may see invoices (finance.read).
  'invoice.draft',
  'invoice.issued',
  'invoice.updated',
  'finance.plan',
] as const;
export type PortalChangeType = (typeof PORTAL_CHANGE_TYPES)[number];

export const portalChangeSchema = z.object({
  type: z.enum(PORTAL_CHANGE_TYPES),
  /** The client the change belongs to (the owner of the project, or the client itself). */
  clientId: z.string(),
  /** The project it concerns; null for a change to the client itself. */
  projectId: z.string().nullable(),
  /** The changed record: project, timeline, report or client id. */
  id: z.string(),
});
export type PortalChange = z.infer<typeof portalChangeSchema>;

/** Changes only staff may hear of: what a client cannot read through the API either (GET /users/clients is staff only). */
const STAFF_ONLY_CHANGES: ReadonlySet<PortalChangeType> = new Set([
  'client.status',
  'client.updated',
  'document.internal',
  'change-order.created',
  'change-order.updated',
  'invoice.draft',
]);

/** Changes only the client people who may see invoices hear of (member permission finance.read). */
const FINANCE_CHANGES: ReadonlySet<PortalChangeType> = new Set(['invoice.issued', 'invoice.updated', 'finance.plan']);

/**
 * Whether a viewer may hear of a change: exactly who may read the changed data. Staff hear of
 * everything; a client only of its own projects, and never of staff-only changes.
 */
export function mayHearOf(viewer: { _id: string; role: 'admin' | 'client'; organisationId?: string | null; memberRole?: MemberRole | null }, change: PortalChange): boolean {
  if (viewer.role === 'admin') return true;
  if (FINANCE_CHANGES.has(change.type) && !memberGrants(viewer.memberRole ?? null, 'finance.read')) return false;
  // A client member hears of its organisation (whose id a founder shares); its project limits are checked by the server (decision 279).
  return !STAFF_ONLY_CHANGES.has(change.type) && change.clientId === (viewer.organisationId ?? viewer._id);
}
