import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { AppError, conflict, notFound } from '../../../common/errors.ts';
import type { ApprovalSubject } from '../../../common/schemas/approvals.ts';
import type { TimelineTask } from '../../../common/schemas/timelines.ts';
import { formatDay } from '../../../common/dates.ts';
import { approvalRequests } from '../../db/schema/approvals.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports, reportImages } from '../../db/schema/reports.ts';
import { ganttCharts } from '../../db/schema/timelines.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { projectScope, type ScopeViewer } from '../projects/project-scope.ts';
import { findDocumentVersion } from '../documents/documents.service.ts';

// What can be approved, and the exact bytes a decision is about (decision 293). Each subject has a
// canonical form: a JSON text with its keys sorted, whose SHA-256 names the exact version. Reading a
// subject for a request or a decision takes FOR SHARE on its row, and every edit path takes FOR
// UPDATE before it checks the guards below, so an edit and a decision never interleave.

/** JSON with object keys sorted at every level: the same record always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sha256Hex = (bytes: string | Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface ResolvedSubject {
  projectId: string;
  clientId: string;
  projectName: string;
  subjectKey: string;
  reportId: string | null;
  timelineId: string | null;
  taskIndex: number | null;
  documentVersionId: string | null;
  title: string;
  version: string;
  sha256: string;
}

const REPORT_TEXT = ['date', 'projectCode', 'project', 'team', 'tasks', 'progress', 'challenges', 'actionTaken', 'helpNeeded', 'nextSteps', 'feedback', 'conclusion'] as const;

/** A milestone's canonical record: what the client sees of it, where it stands. */
export function milestoneRecord(timelineId: string, taskIndex: number, task: Pick<TimelineTask, 'task' | 'month' | 'status'> & { endMonth?: string | null }) {
  return { kind: 'milestone', timelineId, taskIndex, task: task.task, month: task.month, endMonth: task.endMonth ?? task.month, status: task.status };
}

export const milestoneSha256 = (...args: Parameters<typeof milestoneRecord>) => sha256Hex(canonicalJson(milestoneRecord(...args)));

/**
 * Reads a subject where the viewer may see it, locked FOR SHARE until the transaction ends, with
 * its canonical hash. 404 outside the scope; 400 for a milestone that is not completed (asking).
 */
export async function resolveSubject(tx: DbExecutor, viewer: ScopeViewer, subject: ApprovalSubject, purpose: 'ask' | 'decide'): Promise<ResolvedSubject> {
  if (subject.type === 'report') {
    const [row] = await tx
      .select({ report: progressReports, clientId: projects.clientId, projectName: projects.name })
      .from(progressReports)
      .innerJoin(projects, eq(projects.id, progressReports.projectId))
      .where(and(eq(progressReports.id, subject.reportId), projectScope(viewer)))
      .for('share', { of: progressReports });
    if (!row) throw notFound('Report not found');
    const images = await tx
      .select({ id: reportImages.id, name: reportImages.originalName, mimeType: reportImages.mimeType, size: reportImages.size, storageKey: reportImages.storageKey })
      .from(reportImages)
      .where(eq(reportImages.reportId, subject.reportId))
      .orderBy(asc(reportImages.position));
    const record = { kind: 'report', id: row.report.id, version: row.report.version, ...Object.fromEntries(REPORT_TEXT.map((k) => [k, row.report[k]])), images };
    return {
      projectId: row.report.projectId,
      clientId: row.clientId,
      projectName: row.projectName,
      subjectKey: `report:${row.report.id}`,
      reportId: row.report.id,
      timelineId: null,
      taskIndex: null,
      documentVersionId: null,
      title: `Progress report of ${formatDay(row.report.date)}`,
      version: `Version ${row.report.version}`,
      sha256: sha256Hex(canonicalJson(record)),
    };
  }
  if (subject.type === 'milestone') {
    const [row] = await tx
      .select({ timeline: ganttCharts, clientId: projects.clientId, projectName: projects.name })
      .from(ganttCharts)
      .innerJoin(projects, eq(projects.id, ganttCharts.projectId))
      .where(and(eq(ganttCharts.id, subject.timelineId), projectScope(viewer)))
      .for('share', { of: ganttCharts });
    if (!row) throw notFound('Timeline not found');
    const task = row.timeline.tasks[subject.taskIndex];
    if (!task) throw notFound('Milestone not found');
    if (purpose === 'ask' && task.status !== 'completed') {
      throw new AppError('VALIDATION_FAILED', 'Only a completed milestone can be approved: mark it completed first', [{ field: 'subject.taskIndex', message: 'not completed' }]);
    }
    return {
      projectId: row.timeline.projectId,
      clientId: row.clientId,
      projectName: row.projectName,
      subjectKey: `milestone:${row.timeline.id}:${subject.taskIndex}`,
      reportId: null,
      timelineId: row.timeline.id,
      taskIndex: subject.taskIndex,
      documentVersionId: null,
      title: `Milestone: ${task.task}`,
      version: `${row.timeline.projectTitle}, task ${subject.taskIndex + 1} (${task.month}${task.endMonth && task.endMonth !== task.month ? ` to ${task.endMonth}` : ''}, ${task.status})`,
      sha256: milestoneSha256(row.timeline.id, subject.taskIndex, task),
    };
  }
  // A document version (decision 292 keeps its bytes' SHA-256): the document row is held FOR SHARE,
  // so no new version or visibility change slips in. A client never reaches a hidden document.
  const version = await findDocumentVersion(tx, subject.documentVersionId, { lock: true });
  const [project] = version
    ? await tx.select({ clientId: projects.clientId, name: projects.name }).from(projects).where(and(eq(projects.id, version.projectId), projectScope(viewer)))
    : [];
  if (!version || !project || (viewer.role !== 'admin' && !version.visibleToClient)) throw notFound('Document version not found');
  if (purpose === 'ask' && !version.visibleToClient) {
    throw new AppError('VALIDATION_FAILED', 'The client cannot see this document: make it visible to the client first', [{ field: 'subject.documentVersionId', message: 'not visible to the client' }]);
  }
  if (!version.current) {
    if (purpose === 'ask') throw new AppError('VALIDATION_FAILED', 'A newer version supersedes this one: ask for the current version', [{ field: 'subject.documentVersionId', message: 'superseded' }]);
    throw conflict(DOCUMENT_SUPERSEDED);
  }
  return {
    projectId: version.projectId,
    clientId: project.clientId,
    projectName: project.name,
    subjectKey: `document-version:${version.versionId}`,
    reportId: null,
    timelineId: null,
    taskIndex: null,
    documentVersionId: version.versionId,
    title: `Document: ${version.title}`,
    version: `${version.label} (version ${version.number}, ${version.fileName})`,
    sha256: version.sha256,
  };
}

const DOCUMENT_SUPERSEDED = 'A newer version of this document was uploaded since: the team must ask for its approval';

const APPROVED_UNCHANGEABLE = 'This was approved by the client and cannot change: make a new one and ask for its approval';

/**
 * Edit guard of a progress report: refuses (409) a correction of an approved report. Call it after
 * the report's row is locked FOR UPDATE (a decision holds FOR SHARE on it).
 */
export async function refuseIfReportApproved(tx: DbExecutor, reportId: string): Promise<void> {
  const [approved] = await tx
    .select({ id: approvalRequests.id })
    .from(approvalRequests)
    .where(and(eq(approvalRequests.reportId, reportId), eq(approvalRequests.status, 'approved')))
    .limit(1);
  if (approved) throw conflict(APPROVED_UNCHANGEABLE);
}

/**
 * Edit guard of a timeline record: refuses (409) new tasks that change or move an approved milestone
 * (the task at its place must keep the approved record's hash). Call it after the timeline's row is
 * locked FOR UPDATE.
 */
export async function refuseChangedApprovedMilestones(tx: DbExecutor, timelineId: string, tasks: readonly TimelineTask[]): Promise<void> {
  const approved = await tx
    .select({ taskIndex: approvalRequests.taskIndex, sha256: approvalRequests.decidedSha256, title: approvalRequests.subjectTitle })
    .from(approvalRequests)
    .where(and(eq(approvalRequests.timelineId, timelineId), inArray(approvalRequests.status, ['approved'])));
  for (const a of approved) {
    const task = a.taskIndex === null ? undefined : tasks[a.taskIndex];
    if (!task || milestoneSha256(timelineId, a.taskIndex!, task) !== a.sha256) {
      throw conflict(`${a.title} was approved by the client and cannot change or move: keep task ${a.taskIndex! + 1} as it is`);
    }
  }
}
