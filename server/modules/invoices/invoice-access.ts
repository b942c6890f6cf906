import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import { todayIso } from '../../../common/dates.ts';
import type { Invoice } from '../../../common/schemas/invoices.ts';
import { projects } from '../../db/schema/projects.ts';
import { invoices, paymentMilestones } from '../../db/schema/payments.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { invoicesOut } from './finance-read.ts';

// Reaching one invoice for the payment plan's reads and writes (issue 26, decision 298). Every write
// (drafts, issue, credit notes, payments) locks the project against archiving (lockWritableProject),
// then the invoice row FOR UPDATE: two payments, a payment and a credit note, or two issues of one
// draft are serialised, and each reads the balance after the other committed. Issued documents are
// frozen by triggers; the code refuses first with a message.

export type Tx = Parameters<Parameters<FastifyInstance['db']['transaction']>[0]>[0];

/** The refusal of a write that needs an issued invoice (a credit note, a payment). */
export const NOT_ISSUED = 'This invoice is a draft: issue it first';

/** Inside a writing transaction: the invoice row FOR UPDATE and its client's id (404 outside the viewer's scope). */
export async function lockInvoice(tx: Tx, viewer: ScopeViewer, id: string) {
  const [found] = await tx
    .select({ projectId: invoices.projectId })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(invoices.id, id), projectScope(viewer)));
  if (!found) throw notFound('Invoice not found');
  const { clientId } = await lockWritableProject(tx, viewer, found.projectId);
  const [row] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
  return { row, clientId };
}

/** One invoice as the API answers it (read in the caller's transaction). */
export async function invoiceOut(app: FastifyInstance, db: DbExecutor, id: string): Promise<Invoice> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  const names = new Map<string, string>();
  if (row.milestoneId) {
    const [m] = await db.select({ name: paymentMilestones.name }).from(paymentMilestones).where(eq(paymentMilestones.id, row.milestoneId));
    if (m) names.set(row.milestoneId, m.name);
  }
  const [out] = await invoicesOut(db, [row], todayIso(app.clock.now()), names);
  return out;
}

/** A staff-visible invoice, for reads (404 outside the viewer's scope; a client never sees a draft). */
export async function visibleInvoice(db: DbExecutor, viewer: ScopeViewer, id: string) {
  const [found] = await db
    .select({ row: invoices, projectName: projects.name, clientId: projects.clientId })
    .from(invoices)
    .innerJoin(projects, eq(projects.id, invoices.projectId))
    .where(and(eq(invoices.id, id), projectScope(viewer), viewer.role === 'admin' ? undefined : eq(invoices.status, 'issued')));
  if (!found) throw notFound('Invoice not found');
  return found;
}
