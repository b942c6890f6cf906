import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { conflict, notFound } from '../../../common/errors.ts';
import { todayIso } from '../../../common/dates.ts';
import { AppError } from '../../../common/errors.ts';
import { approvalUrls, type Approval, type ApprovalSubject, type createApprovalBodySchema, type decideApprovalBodySchema } from '../../../common/schemas/approvals.ts';
import type { z } from 'zod';
import { approvalRequests } from '../../db/schema/approvals.ts';
import { projects } from '../../db/schema/projects.ts';
import { publishChange } from '../../events/portal-events.ts';
import { queueMail, type DbExecutor } from '../../mail/mailer.ts';
import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { findProjectForViewer, type Viewer } from '../projects/projects.service.ts';
import { projectScope } from '../projects/project-scope.ts';
import { approvalDecisionMail, approvalRequestMail, approversOf } from './approval-mail.ts';
import { resolveSubject } from './approval-subjects.ts';
import { renderDecisionCertificate } from '../../lib/decision-certificate.ts';
import { publishedCompany } from '../site-content/published-company.ts';

type Row = typeof approvalRequests.$inferSelect;

/** Overdue: still waiting for the client after its due day (Lagos days). */
export const isOverdue = (row: Pick<Row, 'status' | 'dueOn'>, now: Date) => row.status === 'pending' && row.dueOn < todayIso(now);

function toApproval(row: Row, projectName: string, now: Date): Approval {
  const decided = row.status === 'approved' || row.status === 'rejected';
  return {
    _id: row.id,
    projectId: row.projectId,
    projectName,
    subjectType: row.subjectType,
    subjectId: row.reportId ?? row.timelineId ?? row.documentVersionId ?? '',
    taskIndex: row.taskIndex,
    subjectTitle: row.subjectTitle,
    subjectVersion: row.subjectVersion,
    subjectSha256: row.subjectSha256,
    note: row.note,
    dueOn: row.dueOn,
    overdue: isOverdue(row, now),
    status: row.status,
    requestedByName: row.requestedByName,
    requestedAt: row.requestedAt.toISOString(),
    decidedByName: row.decidedByName,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    decidedAddress: row.decidedAddress,
    decisionComment: row.decisionComment,
    decidedSha256: row.decidedSha256,
    closedAt: row.closedAt?.toISOString() ?? null,
    certificateUrl: decided ? approvalUrls.certificate(row.id) : null,
  };
}

const subjectOf = (row: Row): ApprovalSubject =>
  row.subjectType === 'report'
    ? { type: 'report', reportId: row.reportId! }
    : row.subjectType === 'milestone'
      ? { type: 'milestone', timelineId: row.timelineId!, taskIndex: row.taskIndex! }
      : { type: 'document', documentVersionId: row.documentVersionId! };

const isUniqueViolation = (err: unknown) => (err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505';

const ALREADY_ASKED = 'This is already waiting for the client or approved: a new version needs its own request';

/**
 * Asks the client to approve a subject (staff): the subject is read where the staff member may see
 * it and fixed by its version and hash; the request, its live event, its audit row and a mail to each
 * of the client's approvers are written in one transaction. Answers the mails to deliver after it.
 */
export async function requestApproval(
  app: FastifyInstance,
  staff: Viewer & { name: string },
  body: z.output<typeof createApprovalBodySchema>,
  who: AuditContext,
): Promise<{ approval: Approval; mailIds: string[] }> {
  const now = app.clock.now();
  if (body.dueOn < todayIso(now)) {
    throw new AppError('VALIDATION_FAILED', 'Due date: choose today or a later day', [{ field: 'dueOn', message: 'in the past' }]);
  }
  try {
    return await app.db.transaction(async (tx) => {
      const subject = await resolveSubject(tx, staff, body.subject, 'ask');
      await lockWritableProject(tx, staff, subject.projectId);
      const [row] = await tx
        .insert(approvalRequests)
        .values({
          projectId: subject.projectId,
          subjectType: body.subject.type,
          subjectKey: subject.subjectKey,
          reportId: subject.reportId,
          timelineId: subject.timelineId,
          taskIndex: subject.taskIndex,
          documentVersionId: subject.documentVersionId,
          subjectTitle: subject.title,
          subjectVersion: subject.version,
          subjectSha256: subject.sha256,
          note: body.note,
          dueOn: body.dueOn,
          requestedBy: staff._id,
          requestedByName: staff.name,
          requestedAt: now,
        })
        .returning();
      await publishChange(tx, { type: 'approval.requested', clientId: subject.clientId, projectId: subject.projectId, id: row.id });
      await recordAudit(tx, who, { action: 'approval.request', entityId: row.id, projectId: subject.projectId, after: { subject: subject.subjectKey, version: subject.version, sha256: subject.sha256, dueOn: body.dueOn } });
      const mailIds: string[] = [];
      for (const approver of await approversOf(tx, subject.projectId)) {
        mailIds.push(await queueMail(tx, app, approvalRequestMail(app, approver, { projectId: subject.projectId, projectName: subject.projectName, title: subject.title, version: subject.version, dueOn: body.dueOn, requestedBy: staff.name })));
      }
      return { approval: toApproval(row, subject.projectName, now), mailIds };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(ALREADY_ASKED);
    throw err;
  }
}

/** A project's approval requests, newest first, for a viewer who may see the project. */
export async function listProjectApprovals(app: FastifyInstance, viewer: Viewer, projectId: string): Promise<Approval[]> {
  const project = await findProjectForViewer(app, viewer, projectId);
  const rows = await app.db
    .select()
    .from(approvalRequests)
    .where(eq(approvalRequests.projectId, projectId))
    .orderBy(desc(approvalRequests.requestedAt), desc(approvalRequests.id));
  const now = app.clock.now();
  return rows.map((row) => toApproval(row, project.name, now));
}

/** The request row locked FOR UPDATE, where the viewer may see its project; 404 otherwise. */
async function lockRequest(tx: DbExecutor, viewer: Viewer, id: string) {
  const [found] = await tx
    .select({ row: approvalRequests, projectName: projects.name, clientId: projects.clientId })
    .from(approvalRequests)
    .innerJoin(projects, eq(projects.id, approvalRequests.projectId))
    .where(and(eq(approvalRequests.id, id), projectScope(viewer)))
    .for('update', { of: approvalRequests });
  if (!found) throw notFound('Approval request not found');
  return found;
}

const ALREADY_DECIDED = 'This request has already been decided or withdrawn';
const SUBJECT_CHANGED = 'What you were asked to approve has changed since: the team must ask again';

/**
 * The client's decision (member permission approvals.decide): the request's row is locked, so of
 * two decisions at once exactly one is recorded and the other is refused (409). The subject is read
 * again (FOR SHARE, so no edit runs beside it) and must still have the hash it was asked with.
 */
export async function decideApproval(
  app: FastifyInstance,
  client: Viewer & { name: string },
  id: string,
  body: z.output<typeof decideApprovalBodySchema>,
  who: AuditContext,
): Promise<{ approval: Approval; mailId: string }> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const { row, projectName, clientId } = await lockRequest(tx, client, id);
    if (row.status !== 'pending') throw conflict(ALREADY_DECIDED);
    await lockWritableProject(tx, client, row.projectId);
    const current = await resolveSubject(tx, client, subjectOf(row), 'decide');
    if (current.sha256 !== row.subjectSha256) throw conflict(SUBJECT_CHANGED);
    const [updated] = await tx
      .update(approvalRequests)
      .set({
        status: body.decision,
        decidedBy: client._id,
        decidedByName: client.name,
        decidedAt: now,
        decidedAddress: who.address ?? 'unknown',
        decisionComment: body.comment,
        decidedSha256: current.sha256,
      })
      .where(eq(approvalRequests.id, id))
      .returning();
    await publishChange(tx, { type: 'approval.decided', clientId, projectId: row.projectId, id });
    await recordAudit(tx, who, { action: `approval.${body.decision === 'approved' ? 'approve' : 'reject'}`, entityId: id, projectId: row.projectId, before: { status: 'pending' }, after: { status: body.decision, sha256: current.sha256, comment: body.comment } });
    const mailId = await queueMail(tx, app, approvalDecisionMail(app, { projectName, title: row.subjectTitle, version: row.subjectVersion, decision: body.decision, decidedBy: client.name, comment: body.comment }));
    return { approval: toApproval(updated, projectName, now), mailId };
  });
}

/**
 * Staff take a request off the waiting lists: a pending one is withdrawn (the subject may then be
 * asked again), a rejected one is closed (its follow-up is done). An approved one stays as it is (409).
 */
export async function closeApproval(app: FastifyInstance, staff: Viewer, id: string, who: AuditContext): Promise<Approval> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const { row, projectName, clientId } = await lockRequest(tx, staff, id);
    if (row.status === 'approved' || row.closedAt) throw conflict('This request is approved or already closed');
    await lockWritableProject(tx, staff, row.projectId);
    const status = row.status === 'pending' ? 'withdrawn' : row.status;
    const [updated] = await tx.update(approvalRequests).set({ status, closedAt: now, closedBy: staff._id }).where(eq(approvalRequests.id, id)).returning();
    await publishChange(tx, { type: 'approval.updated', clientId, projectId: row.projectId, id });
    await recordAudit(tx, who, { action: 'approval.close', entityId: id, projectId: row.projectId, before: { status: row.status }, after: { status, closed: true } });
    return toApproval(updated, projectName, now);
  });
}

/** The decision's certificate (PDF bytes) for a viewer who may see the project; 404 until decided. */
export async function approvalCertificate(app: FastifyInstance, viewer: Viewer, id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const [found] = await app.db
    .select({ row: approvalRequests, projectName: projects.name, projectCode: projects.code })
    .from(approvalRequests)
    .innerJoin(projects, eq(projects.id, approvalRequests.projectId))
    .where(and(eq(approvalRequests.id, id), projectScope(viewer)))
    .orderBy(asc(approvalRequests.id));
  if (!found) throw notFound('Approval request not found');
  const { row } = found;
  if ((row.status !== 'approved' && row.status !== 'rejected') || !row.decidedAt || !row.decidedSha256) throw notFound('This request has no decision yet');
  const pdf = await renderDecisionCertificate({
    issuer: publishedCompany(app).name,
    title: 'Approval certificate',
    subjectLines: [
      ['Project', found.projectCode ? `${found.projectName} (${found.projectCode})` : found.projectName],
      ['Subject', row.subjectTitle],
      ['Version', row.subjectVersion],
      ['Asked by', `${row.requestedByName}, ${row.requestedAt.toISOString().slice(0, 10)}`],
      ...(row.note ? ([['Note', row.note]] as const) : []),
    ],
    decision: row.status,
    decidedBy: row.decidedByName ?? 'unknown',
    decidedAt: row.decidedAt,
    address: row.decidedAddress ?? 'unknown',
    sha256: row.decidedSha256,
    comment: row.decisionComment,
    reference: row.id,
  });
  return { fileName: `approval-${row.status}-${row.id.slice(0, 8)}.pdf`, pdf };
}
