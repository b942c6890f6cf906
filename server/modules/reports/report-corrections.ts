import { pick, recordAudit, type AuditContext } from '../audit/audit.ts';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { AppError, notFound } from '../../../common/errors.ts';
import { NOTHING_TO_CHANGE } from '../../../common/schemas/patch.ts';
import { REPORT_IMAGES_MAX, updateReportFieldsSchema, type Report, type ReportVersion, type ReportVersionsResponse } from '../../../common/schemas/reports.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports, reportImages, reportVersions } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { deliverQueuedMail, queueMail } from '../../mail/mailer.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import type { Viewer } from '../projects/projects.service.ts';
import { projectScope } from '../projects/project-scope.ts';
import { deleteStoredReportImages, reportImageRow, type StoredReportImage } from './report-images.ts';
import { reportNotificationMail } from './report-mail.ts';
import { refuseIfReportApproved } from '../approvals/approval-subjects.ts';
import { receiveReport, toReport, type ImageRow } from './reports.service.ts';

// Corrections of progress reports (issue 22, decision 242): every correction keeps the text it
// replaces as a numbered version; the client reads the current one with 'Corrected on {date}'.

const TEXT_KEYS = ['date', 'projectCode', 'project', 'team', 'tasks', 'progress', 'challenges', 'actionTaken', 'helpNeeded', 'nextSteps', 'feedback', 'conclusion'] as const;

/** Whether the report exists where the viewer may see it (decision 277: outside is missing). */
async function reportExists(app: FastifyInstance, viewer: Viewer, reportId: string): Promise<boolean> {
  const [row] = await app.db
    .select({ id: progressReports.id })
    .from(progressReports)
    .innerJoin(projects, eq(projects.id, progressReports.projectId))
    .where(and(eq(progressReports.id, reportId), projectScope(viewer)))
    .limit(1);
  return Boolean(row);
}

const nothingToChange = () => new AppError('VALIDATION_FAILED', NOTHING_TO_CHANGE);

/**
 * Applies a correction in one transaction, the report's row locked (two corrections at once file
 * versions one after the other, never the same number): the current text becomes a version, the
 * named fields change, removed images' rows go and added ones join at the end. With `notifyClient`
 * and the client's report mails on, one mail is queued in the same transaction (never throttled
 * away: staff asked for it). Answers the stored keys of the removed images, deleted after commit.
 */
async function applyCorrection(
  app: FastifyInstance,
  staff: Viewer,
  reportId: string,
  changes: Partial<Record<(typeof TEXT_KEYS)[number], string>>,
  removeIds: readonly string[],
  added: readonly StoredReportImage[],
  notifyClient: boolean,
  who: AuditContext,
): Promise<{ report: Report; removed: ImageRow[]; mailId: string | null }> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ report: progressReports, clientId: projects.clientId, projectName: projects.name })
      .from(progressReports)
      .innerJoin(projects, eq(projects.id, progressReports.projectId))
      .where(and(eq(progressReports.id, reportId), projectScope(staff)))
      .for('update', { of: progressReports });
    if (!locked) throw notFound('Report not found');
    // An archived project (or client) is read-only: a correction waits for a restore (issue 22).
    await lockWritableProject(tx, staff, locked.report.projectId);
    // An approved report never changes (decision 293); a decision holds FOR SHARE on this row.
    await refuseIfReportApproved(tx, reportId);
    const before = locked.report;
    const images = await tx.select().from(reportImages).where(eq(reportImages.reportId, reportId)).orderBy(asc(reportImages.position));
    const removed = images.filter((img) => removeIds.includes(img.id));
    if (removed.length !== new Set(removeIds).size) {
      throw new AppError('VALIDATION_FAILED', 'removeImages: this report has no such image', [{ field: 'removeImages', message: 'this report has no such image' }]);
    }
    if (images.length - removed.length + added.length > REPORT_IMAGES_MAX) {
      throw new AppError('PAYLOAD_TOO_LARGE', `A report can carry at most ${REPORT_IMAGES_MAX} images`);
    }
    await tx.insert(reportVersions).values({
      reportId,
      version: before.version,
      writtenBy: before.correctedBy ?? before.createdBy,
      writtenAt: before.correctedAt ?? before.createdAt,
      ...Object.fromEntries(TEXT_KEYS.map((key) => [key, before[key]])),
      imageNames: images.map((img) => img.originalName),
    } as typeof reportVersions.$inferInsert);
    const [report] = await tx
      .update(progressReports)
      .set({ ...changes, version: before.version + 1, correctedAt: now, correctedBy: staff._id })
      .where(eq(progressReports.id, reportId))
      .returning();
    if (removed.length > 0) await tx.delete(reportImages).where(inArray(reportImages.id, removed.map((img) => img.id)));
    const nextPosition = images.reduce((max, img) => Math.max(max, img.position + 1), 0);
    if (added.length > 0) {
      await tx.insert(reportImages).values(
        added.map((img, i) => reportImageRow(reportId, img, nextPosition + i)),
      );
    }
    await publishChange(tx, { type: 'report.updated', clientId: locked.clientId, projectId: before.projectId, id: reportId });
    const imageChanges = { removedImages: removed.map((img) => img.originalName), addedImages: added.length };
    await recordAudit(tx, who, { action: 'report.correct', entityId: reportId, projectId: before.projectId, before: { ...pick(before, changes), removedImages: [], addedImages: 0 }, after: { ...changes, ...imageChanges } });
    let mailId: string | null = null;
    if (notifyClient) {
      const [client] = await tx.select({ name: users.name, email: users.email, reportMail: users.reportMail }).from(users).where(eq(users.id, locked.clientId));
      if (client?.reportMail) {
        mailId = await queueMail(tx, app, reportNotificationMail(app, {
          clientName: client.name,
          clientEmail: client.email,
          projectId: before.projectId,
          projectName: locked.projectName,
          reportId,
          reportDate: report.date,
          corrected: true,
          addedAt: report.correctedAt ?? report.createdAt,
        }));
      }
    }
    const current = await tx.select().from(reportImages).where(eq(reportImages.reportId, reportId)).orderBy(asc(reportImages.position));
    return { report: toReport(report, current), removed, mailId };
  });
}

/**
 * Corrects a progress report from its multipart PATCH: text fields with creation's rules, `images`
 * to add (checked and stored like creation's), `removeImages` and `notifyClient`. Added images are
 * deleted again if the correction fails; removed images' files only once it is committed.
 */
export async function correctProgressReport(
  app: FastifyInstance,
  later: AfterAnswer,
  staff: Viewer,
  reportId: string,
  readParts: () => AsyncIterable<Multipart>,
  who: AuditContext,
): Promise<{ report: Report; clientMailed: boolean }> {
  if (!(await reportExists(app, staff, reportId))) throw notFound('Report not found');
  // Added images are stored under the report's folder with fresh ids, exactly as at creation.
  const { fields, images } = await receiveReport(app, readParts(), reportId, updateReportFieldsSchema);
  try {
    const { removeImages = [], notifyClient = false, ...text } = fields;
    const changes = Object.fromEntries(Object.entries(text).filter(([, v]) => v !== undefined)) as Partial<Record<(typeof TEXT_KEYS)[number], string>>;
    if (Object.keys(changes).length === 0 && removeImages.length === 0 && images.length === 0) throw nothingToChange();
    const { report, removed, mailId } = await applyCorrection(app, staff, reportId, changes, removeImages, images, notifyClient, who);
    await deleteStoredReportImages(app, removed);
    if (mailId) later(deliverQueuedMail(app, [mailId]), 'report correction mail failed');
    return { report, clientMailed: mailId !== null };
  } catch (err) {
    await deleteStoredReportImages(app, images);
    throw err;
  }
}

/** The earlier versions of a report, newest first, with who wrote each and when (staff only). */
export async function listReportVersions(app: FastifyInstance, viewer: Viewer, reportId: string): Promise<Omit<ReportVersionsResponse, 'success'>> {
  const currentWriter = alias(users, 'current_writer');
  const [current] = await app.db
    .select({ report: progressReports, writer: currentWriter.name })
    .from(progressReports)
    .leftJoin(currentWriter, eq(currentWriter.id, progressReports.correctedBy))
    .innerJoin(projects, eq(projects.id, progressReports.projectId))
    .where(and(eq(progressReports.id, reportId), projectScope(viewer)))
    .limit(1);
  if (!current) throw notFound('Report not found');
  const rows = await app.db
    .select({ version: reportVersions, writer: users.name })
    .from(reportVersions)
    .leftJoin(users, eq(users.id, reportVersions.writtenBy))
    .where(eq(reportVersions.reportId, reportId))
    .orderBy(desc(reportVersions.version));
  let currentWriterName = current.writer;
  if (!current.report.correctedBy && current.report.createdBy) {
    const [creator] = await app.db.select({ name: users.name }).from(users).where(eq(users.id, current.report.createdBy));
    currentWriterName = creator?.name ?? null;
  }
  const versions: ReportVersion[] = rows.map(({ version: v, writer }) => ({
    version: v.version,
    writtenBy: writer,
    writtenAt: v.writtenAt.toISOString(),
    ...Object.fromEntries(TEXT_KEYS.map((key) => [key, v[key]])),
    imageNames: v.imageNames,
  }) as ReportVersion);
  return {
    current: {
      version: current.report.version,
      writtenBy: currentWriterName,
      writtenAt: (current.report.correctedAt ?? current.report.createdAt).toISOString(),
    },
    versions,
  };
}
