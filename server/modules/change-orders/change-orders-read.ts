import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import {
  changeOrderAttachmentUrl,
  changeOrderNumber,
  type ChangeOrder,
  type ChangeOrderAttachment,
  type ContractHistory,
} from '../../../common/schemas/change-orders.ts';
import { changeOrderAttachments, changeOrders } from '../../db/schema/change-orders.ts';
import { projects } from '../../db/schema/projects.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';

// How change orders read (issue 25, decision 294): rows as the API answers them, with their
// attachments, and what each viewer may see. The writes are in change-orders.service.ts.

type Row = typeof changeOrders.$inferSelect;
type AttachmentRow = typeof changeOrderAttachments.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const text = (k: bigint | null) => (k === null ? null : k.toString());

function toAttachment(row: AttachmentRow): ChangeOrderAttachment {
  return {
    _id: row.id,
    fileName: row.fileName,
    mimeType: row.contentType,
    size: row.sizeBytes,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
    url: changeOrderAttachmentUrl(row.changeOrderId, row.id),
  };
}

/** The attachment rows of these change orders, oldest first (one query whatever the count). */
export async function attachmentRowsOf(db: DbExecutor, ids: string[]): Promise<AttachmentRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(changeOrderAttachments)
    .where(inArray(changeOrderAttachments.changeOrderId, ids))
    .orderBy(asc(changeOrderAttachments.createdAt), asc(changeOrderAttachments.id));
}

/** Change orders as the API answers them, with their attachments. */
async function withAttachments(db: DbExecutor, rows: Row[]): Promise<ChangeOrder[]> {
  const files = await attachmentRowsOf(db, rows.map((r) => r.id));
  return rows.map((row) => toChangeOrder(row, files.filter((f) => f.changeOrderId === row.id).map(toAttachment)));
}

/** One change order as the API answers it, with its attachments (read in the caller's transaction). */
export async function changeOrderOut(db: DbExecutor, row: Row): Promise<ChangeOrder> {
  const [out] = await withAttachments(db, [row]);
  return out;
}

/** A change order row as the API answers it, given its attachments. */
export function toChangeOrder(row: Row, attachments: ChangeOrderAttachment[]): ChangeOrder {
  return {
    _id: row.id,
    projectId: row.projectId,
    number: row.number,
    reference: changeOrderNumber(row.number),
    title: row.title,
    description: row.description,
    costKobo: row.costKobo.toString(),
    scheduleDays: row.scheduleDays,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    decidedAt: iso(row.decidedAt),
    decidedByName: row.decidedByName,
    decisionComment: row.decisionComment,
    budgetBeforeKobo: text(row.budgetBeforeKobo),
    budgetAfterKobo: text(row.budgetAfterKobo),
    endDateBefore: row.endDateBefore,
    endDateAfter: row.endDateAfter,
    attachments,
  };
}

/** What a client sees: change orders once sent (a draft, and one withdrawn before sending, stay with staff). */
export const CLIENT_SEES = sql`${changeOrders.sentAt} is not null`;

/** The project if the viewer may see it (another client's is 404, like a missing one). */
async function projectOf(db: DbExecutor, viewer: ScopeViewer, projectId: string) {
  const [row] = await db
    .select({ id: projects.id, clientId: projects.clientId, name: projects.name, budgetKobo: projects.budgetKobo, originalBudgetKobo: projects.originalBudgetKobo, endDate: projects.endDate })
    .from(projects)
    .where(and(eq(projects.id, projectId), projectScope(viewer)))
    .limit(1);
  if (!row) throw notFound('Project not found');
  return row;
}

/** A project's change orders (staff: all; a client: those sent), newest first, with the contract history. */
export async function listChangeOrders(app: FastifyInstance, viewer: ScopeViewer, projectId: string): Promise<{ changeOrders: ChangeOrder[]; history: ContractHistory }> {
  const project = await projectOf(app.db, viewer, projectId);
  const rows = await app.db
    .select()
    .from(changeOrders)
    .where(and(eq(changeOrders.projectId, projectId), viewer.role === 'admin' ? undefined : CLIENT_SEES))
    .orderBy(sql`${changeOrders.number} desc`);
  const approved = rows.filter((r) => r.status === 'approved').sort((a, b) => a.decidedAt!.getTime() - b.decidedAt!.getTime());
  return {
    changeOrders: await withAttachments(app.db, rows),
    history: {
      originalBudgetKobo: project.originalBudgetKobo.toString(),
      currentBudgetKobo: project.budgetKobo.toString(),
      originalEndDate: approved.length ? approved[0].endDateBefore : project.endDate,
      currentEndDate: project.endDate,
    },
  };
}

/** A change order the viewer may see (a client: once sent; in the viewer's project scope), unlocked; 404 otherwise. */
export async function visibleChangeOrder(db: DbExecutor, viewer: ScopeViewer, id: string): Promise<Row> {
  const [found] = await db
    .select({ row: changeOrders })
    .from(changeOrders)
    .innerJoin(projects, eq(projects.id, changeOrders.projectId))
    .where(and(eq(changeOrders.id, id), projectScope(viewer), viewer.role === 'admin' ? undefined : CLIENT_SEES));
  if (!found) throw notFound('Change order not found');
  return found.row;
}
