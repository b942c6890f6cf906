import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict } from '../../../common/errors.ts';
import { KOBO_MAX } from '../../../common/money.ts';
import type { ChangeOrder, ChangeOrderStatus } from '../../../common/schemas/change-orders.ts';
import { memberGrants, type MemberRole } from '../../../common/permissions.ts';
import { changeOrders } from '../../db/schema/change-orders.ts';
import { projects } from '../../db/schema/projects.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { queueMail } from '../../mail/mailer.ts';
import { publishChange } from '../../events/portal-events.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { removeStoredFiles } from '../files/stored-files.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import type { ScopeViewer } from '../projects/project-scope.ts';
import { changeOrderDecidedMail, changeOrderSentMail } from './change-order-mail.ts';
import { attachmentRowsOf, changeOrderOut, toChangeOrder, visibleChangeOrder } from './change-orders-read.ts';

// Change orders (issue 25, decision 294): the writes that move a change order through its states
// (draft, sent, approved or declined, withdrawn); how they read is in change-orders-read.ts.
// Every write locks the project row (FOR NO KEY UPDATE, after lockWritableProject's KEY SHARE, so
// archiving still waits and two writers never deadlock), then the change order row: a decision, an
// edit and a withdrawal of the same change order are serialised, and the one that finds it no
// longer in the state it needs answers 409.

const CHANGE_ORDER_DECIDED = 'This change order has been decided and can no longer change';
const NOT_A_DRAFT = 'Only a draft change order can be edited or sent';
const ONLY_DRAFTS_DELETED = 'Only a draft change order can be deleted: withdraw it instead';
const NOT_WAITING = 'This change order is not waiting for a decision';
const SUM_BELOW_ZERO = 'This change would take the contract sum below zero';
const SUM_TOO_LARGE = 'This change would take the contract sum past the largest amount';

type Row = typeof changeOrders.$inferSelect;

export interface ChangeOrderFields {
  title: string;
  description: string;
  /** Kobo as decimal integer text (the request schema's exact reading). */
  cost: string;
  scheduleDays: number;
}

/** Locks the project for a change-order write (archived: 409; outside the viewer's scope: 404). */
async function lockProject(tx: DbExecutor, viewer: ScopeViewer, projectId: string) {
  await lockWritableProject(tx, viewer, projectId);
  const [row] = await tx
    .select({ id: projects.id, clientId: projects.clientId, name: projects.name, budgetKobo: projects.budgetKobo, endDate: projects.endDate })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for('no key update');
  return row;
}

/** Drafts a change order on a project, numbered next in the project (staff). */
export async function createChangeOrder(app: FastifyInstance, viewer: ScopeViewer, projectId: string, fields: ChangeOrderFields, who: AuditContext): Promise<ChangeOrder> {
  return app.db.transaction(async (tx) => {
    const project = await lockProject(tx, viewer, projectId);
    const [{ next }] = await tx
      .select({ next: sql<number>`coalesce(max(${changeOrders.number}), 0) + 1`.mapWith(Number) })
      .from(changeOrders)
      .where(eq(changeOrders.projectId, projectId));
    const now = app.clock.now();
    const [row] = await tx
      .insert(changeOrders)
      .values({
        projectId,
        number: next,
        title: fields.title,
        description: fields.description,
        costKobo: BigInt(fields.cost),
        scheduleDays: fields.scheduleDays,
        createdBy: who.actorId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await publishChange(tx, { type: 'change-order.created', clientId: project.clientId, projectId, id: row.id });
    await recordAudit(tx, who, { action: 'change-order.create', entityId: row.id, projectId, after: { ...fields, number: next } });
    return toChangeOrder(row, []);
  });
}

/** Locks a change order and its project for a write by this viewer; 404 when either is out of sight. */
export async function lockChangeOrder(tx: DbExecutor, viewer: ScopeViewer, id: string) {
  const found = await visibleChangeOrder(tx, viewer, id);
  const project = await lockProject(tx, viewer, found.projectId);
  const [row] = await tx.select().from(changeOrders).where(eq(changeOrders.id, id)).for('update');
  return { project, row };
}

export const refuseUnless = (row: Row, status: ChangeOrderStatus, message: string) => {
  if (row.status === 'approved' || row.status === 'declined') throw conflict(CHANGE_ORDER_DECIDED);
  if (row.status !== status) throw conflict(message);
};

/** Corrects a draft (staff); anything past draft is 409. */
export async function updateChangeOrder(app: FastifyInstance, viewer: ScopeViewer, id: string, changes: Partial<ChangeOrderFields>, who: AuditContext): Promise<ChangeOrder> {
  return app.db.transaction(async (tx) => {
    const { project, row } = await lockChangeOrder(tx, viewer, id);
    refuseUnless(row, 'draft', NOT_A_DRAFT);
    const { cost, ...rest } = changes;
    const set = { ...rest, ...(cost !== undefined ? { costKobo: BigInt(cost) } : {}) };
    const [updated] = await tx
      .update(changeOrders)
      .set({ ...set, updatedAt: app.clock.now() })
      .where(eq(changeOrders.id, id))
      .returning();
    await publishChange(tx, { type: 'change-order.updated', clientId: project.clientId, projectId: project.id, id });
    const before = { title: row.title, description: row.description, cost: row.costKobo.toString(), scheduleDays: row.scheduleDays };
    await recordAudit(tx, who, {
      action: 'change-order.update',
      entityId: id,
      projectId: project.id,
      before: Object.fromEntries(Object.keys(changes).map((k) => [k, before[k as keyof typeof before]])),
      after: changes,
    });
    return changeOrderOut(tx, updated);
  });
}

/**
 * Sends a draft to the client (staff): its approvers (members whose role may decide, who see the
 * project and take project mails) are mailed; the caller delivers the mails after the commit.
 */
export async function sendChangeOrder(app: FastifyInstance, viewer: ScopeViewer, id: string, who: AuditContext): Promise<{ changeOrder: ChangeOrder; mailIds: string[] }> {
  return app.db.transaction(async (tx) => {
    const { project, row } = await lockChangeOrder(tx, viewer, id);
    refuseUnless(row, 'draft', NOT_A_DRAFT);
    const now = app.clock.now();
    const [updated] = await tx.update(changeOrders).set({ status: 'sent', sentAt: now, updatedAt: now }).where(eq(changeOrders.id, id)).returning();
    await publishChange(tx, { type: 'change-order.sent', clientId: project.clientId, projectId: project.id, id });
    await recordAudit(tx, who, { action: 'change-order.send', entityId: id, projectId: project.id, before: { status: row.status }, after: { status: 'sent' } });
    const approvers = await tx.execute<{ name: string; email: string; member_role: MemberRole }>(sql`
      select u.name, u.email, u.member_role from users u
      where u.role = 'client' and u.organisation_id = ${project.clientId} and u.removed_at is null and u.archived_at is null and u.report_mail
        and (not exists (select 1 from project_member_limits l where l.user_id = u.id)
          or exists (select 1 from project_member_limits l where l.user_id = u.id and l.project_id = ${project.id}))
      order by u.created_at`);
    const mailIds: string[] = [];
    for (const a of approvers.rows.filter((r) => memberGrants(r.member_role, 'approvals.decide'))) {
      const facts = { projectId: project.id, projectName: project.name, number: row.number, title: row.title, costKobo: row.costKobo, scheduleDays: row.scheduleDays, at: now };
      mailIds.push(await queueMail(tx, app, changeOrderSentMail(app, a, facts)));
    }
    return { changeOrder: await changeOrderOut(tx, updated), mailIds };
  });
}

/** Withdraws a draft or a sent change order before its decision (staff). */
export async function withdrawChangeOrder(app: FastifyInstance, viewer: ScopeViewer, id: string, who: AuditContext): Promise<ChangeOrder> {
  return app.db.transaction(async (tx) => {
    const { project, row } = await lockChangeOrder(tx, viewer, id);
    if (row.status === 'approved' || row.status === 'declined') throw conflict(CHANGE_ORDER_DECIDED);
    if (row.status === 'withdrawn') throw conflict('This change order is already withdrawn');
    const now = app.clock.now();
    const [updated] = await tx.update(changeOrders).set({ status: 'withdrawn', withdrawnAt: now, updatedAt: now }).where(eq(changeOrders.id, id)).returning();
    await publishChange(tx, { type: row.sentAt ? 'change-order.withdrawn' : 'change-order.updated', clientId: project.clientId, projectId: project.id, id });
    await recordAudit(tx, who, { action: 'change-order.withdraw', entityId: id, projectId: project.id, before: { status: row.status }, after: { status: 'withdrawn' } });
    return changeOrderOut(tx, updated);
  });
}

/**
 * Deletes a draft change order (staff) with its attachments: the rows go in one transaction (the
 * attachments cascade), their files after the commit (what that misses, the sweep removes). Once
 * sent, a change order is part of the record and is withdrawn instead (409).
 */
export async function deleteChangeOrder(app: FastifyInstance, viewer: ScopeViewer, id: string, who: AuditContext): Promise<void> {
  const keys = await app.db.transaction(async (tx) => {
    const { project, row } = await lockChangeOrder(tx, viewer, id);
    refuseUnless(row, 'draft', ONLY_DRAFTS_DELETED);
    const files = await attachmentRowsOf(tx, [id]);
    await tx.delete(changeOrders).where(eq(changeOrders.id, id));
    await publishChange(tx, { type: 'change-order.updated', clientId: project.clientId, projectId: project.id, id });
    await recordAudit(tx, who, {
      action: 'change-order.delete',
      entityId: id,
      projectId: project.id,
      before: { number: row.number, title: row.title, cost: row.costKobo.toString(), scheduleDays: row.scheduleDays, attachments: files.map((f) => ({ fileName: f.fileName, sha256: f.sha256 })) },
    });
    return files.map((f) => f.storageKey);
  });
  await removeStoredFiles(app, keys);
}

export interface Decider extends ScopeViewer {
  name: string;
}

/**
 * The client's approver approves or declines a sent change order. Approval moves the project's
 * budget by the cost and its end date by the days in the same transaction, with the project row
 * locked, and records both sides of the move; of two decisions at once exactly one wins, the other
 * finds it decided (409). Staff are mailed after the commit (the caller delivers).
 */
export async function decideChangeOrder(
  app: FastifyInstance,
  viewer: Decider,
  id: string,
  decision: { decision: 'approve' | 'decline'; comment: string },
  who: AuditContext,
): Promise<{ changeOrder: ChangeOrder; mailId: string }> {
  return app.db.transaction(async (tx) => {
    const { project, row } = await lockChangeOrder(tx, viewer, id);
    refuseUnless(row, 'sent', NOT_WAITING);
    const now = app.clock.now();
    const approved = decision.decision === 'approve';
    const decided = { decidedAt: now, decidedBy: viewer._id, decidedByName: viewer.name, decidedFromIp: who.address, decisionComment: decision.comment || null, updatedAt: now };
    let set: Partial<Row>;
    if (approved) {
      const after = project.budgetKobo + row.costKobo;
      if (after < 0n) throw conflict(SUM_BELOW_ZERO);
      if (after > KOBO_MAX) throw conflict(SUM_TOO_LARGE);
      const [moved] = await tx
        .update(projects)
        .set({ budgetKobo: after, endDate: sql`(${projects.endDate} + ${row.scheduleDays}::int)`, updatedAt: now })
        .where(eq(projects.id, project.id))
        .returning({ endDate: projects.endDate });
      set = { status: 'approved', ...decided, budgetBeforeKobo: project.budgetKobo, budgetAfterKobo: after, endDateBefore: project.endDate, endDateAfter: moved.endDate };
      await publishChange(tx, { type: 'project.updated', clientId: project.clientId, projectId: project.id, id: project.id });
    } else {
      set = { status: 'declined', ...decided };
    }
    const [updated] = await tx.update(changeOrders).set(set).where(eq(changeOrders.id, id)).returning();
    await publishChange(tx, { type: 'change-order.decided', clientId: project.clientId, projectId: project.id, id });
    await recordAudit(tx, who, {
      action: approved ? 'change-order.approve' : 'change-order.decline',
      entityId: id,
      projectId: project.id,
      before: { status: row.status, ...(approved ? { budget: project.budgetKobo.toString(), endDate: project.endDate } : {}) },
      after: { status: updated.status, comment: decision.comment, ...(approved ? { budget: updated.budgetAfterKobo!.toString(), endDate: updated.endDateAfter } : {}) },
    });
    const mailId = await queueMail(
      tx,
      app,
      changeOrderDecidedMail(app, {
        projectId: project.id,
        projectName: project.name,
        number: row.number,
        title: row.title,
        costKobo: row.costKobo,
        scheduleDays: row.scheduleDays,
        at: now,
        approved,
        decidedBy: viewer.name,
        comment: decision.comment,
      }),
    );
    return { changeOrder: await changeOrderOut(tx, updated), mailId };
  });
}
