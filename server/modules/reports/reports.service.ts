import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { notFound } from '../../../common/errors.ts';
import { company } from '../../../common/content/company.ts';
import { paginationOf, type Pagination, type PaginationQuery } from '../../../common/schemas/pagination.ts';
import { reportUrls, type Report } from '../../../common/schemas/reports.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports, reportImages } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import { queueMail } from '../../mail/mailer.ts';
import { claimNotification } from '../messages/messages.service.ts';
import { reportMailRecipient, reportNotificationMail } from './report-mail.ts';
import { findProjectForViewer, type Viewer } from '../projects/projects.service.ts';
import type { StoredReportImage } from './report-images.ts';

export interface NewReport {
  date: string;
  projectId: string;
  projectCode: string;
  project: string;
  team: string;
  tasks: string;
  progress: string;
  challenges: string;
  actionTaken: string;
  helpNeeded: string;
  nextSteps: string;
  feedback: string;
  conclusion: string;
}

type ReportRow = typeof progressReports.$inferSelect;
type ImageRow = typeof reportImages.$inferSelect;

function toReport(row: ReportRow, images: ImageRow[]): Report {
  return {
    _id: row.id,
    date: row.date,
    projectCode: row.projectCode,
    projectId: row.projectId,
    project: row.project,
    team: row.team,
    tasks: row.tasks,
    progress: row.progress,
    challenges: row.challenges,
    actionTaken: row.actionTaken,
    helpNeeded: row.helpNeeded,
    nextSteps: row.nextSteps,
    feedback: row.feedback,
    conclusion: row.conclusion,
    images: images.map((img) => ({
      _id: img.id,
      name: img.originalName,
      mimeType: img.mimeType,
      size: img.size,
      width: img.width,
      height: img.height,
      url: reportUrls.image(row.id, img.id),
      thumbnailUrl: reportUrls.thumbnail(row.id, img.id),
    })),
    pdfUrl: reportUrls.pdf(row.id),
    createdAt: row.createdAt.toISOString(),
  };
}

async function imagesOf(app: FastifyInstance, reportIds: string[]): Promise<Map<string, ImageRow[]>> {
  const byReport = new Map<string, ImageRow[]>(reportIds.map((id) => [id, []]));
  if (reportIds.length === 0) return byReport;
  const rows = await app.db
    .select()
    .from(reportImages)
    .where(inArray(reportImages.reportId, reportIds))
    .orderBy(asc(reportImages.reportId), asc(reportImages.position));
  for (const row of rows) byReport.get(row.reportId)?.push(row);
  return byReport;
}

/**
 * Records a report and its already-stored images in one transaction (all or nothing), with its live
 * event and, unless the client turned them off, its mail to the client (at most one per project per
 * quiet period, decided in the same transaction, like message notifications); the caller delivers
 * the mail after the commit.
 */
export async function createReport(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
  input: NewReport,
  images: readonly StoredReportImage[],
): Promise<{ report: Report; mailId: string | null }> {
  const project = await findProjectForViewer(app, viewer, input.projectId);
  const now = app.clock.now();
  const { report, imageRows, mailId } = await app.db.transaction(async (tx) => {
    const [report] = await tx
      .insert(progressReports)
      .values({ ...input, id: reportId, team: input.team || company.name, createdBy: viewer._id, createdAt: now })
      .returning();
    const imageRows =
      images.length === 0
        ? []
        : await tx
            .insert(reportImages)
            .values(
              images.map((img, position) => ({
                id: img.id,
                reportId,
                position,
                storageKey: img.storageKey,
                thumbnailKey: img.thumbnailKey,
                mimeType: img.mimeType,
                originalName: img.originalName,
                size: img.size,
                width: img.width,
                height: img.height,
              })),
            )
            .returning();
    await publishChange(tx, { type: 'report.created', clientId: project.clientId._id, projectId: project._id, id: reportId });
    let mailId: string | null = null;
    const [client] = await tx
      .select({ name: users.name, email: users.email, reportMail: users.reportMail })
      .from(users)
      .where(eq(users.id, project.clientId._id));
    if (client?.reportMail && (await claimNotification(tx, now, project._id, reportMailRecipient(project.clientId._id)))) {
      const mail = reportNotificationMail(app, {
        clientName: client.name,
        clientEmail: client.email,
        projectId: project._id,
        projectName: project.name,
        reportId,
        reportDate: report.date,
      });
      mailId = await queueMail(tx, app, mail);
    }
    return { report, imageRows, mailId };
  });
  return { report: toReport(report, imageRows), mailId };
}

/** Whether the user is e-mailed about new progress reports. */
export async function getReportMailSetting(app: FastifyInstance, userId: string): Promise<boolean> {
  const [row] = await app.db.select({ reportMail: users.reportMail }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound('Account not found');
  return row.reportMail;
}

/** Turns the user's e-mails about new progress reports on or off. */
export async function setReportMailSetting(app: FastifyInstance, userId: string, reportMail: boolean): Promise<boolean> {
  const [row] = await app.db
    .update(users)
    .set({ reportMail, updatedAt: app.clock.now() })
    .where(eq(users.id, userId))
    .returning({ reportMail: users.reportMail });
  if (!row) throw notFound('Account not found');
  return row.reportMail;
}

/** One page of a project's reports, newest first, with their images (two queries, whatever the page size). */
export async function listProjectReports(
  app: FastifyInstance,
  viewer: Viewer,
  projectId: string,
  page: PaginationQuery,
): Promise<{ reports: Report[]; pagination: Pagination }> {
  await findProjectForViewer(app, viewer, projectId);
  const rows = await app.db
    .select({ report: progressReports, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(progressReports)
    .where(eq(progressReports.projectId, projectId))
    .orderBy(desc(progressReports.date), desc(progressReports.createdAt), desc(progressReports.id))
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize);
  const total =
    rows[0]?.total ??
    (page.page > 1
      ? (await app.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(progressReports).where(eq(progressReports.projectId, projectId)))[0].n
      : 0);
  const images = await imagesOf(app, rows.map((r) => r.report.id));
  return {
    reports: rows.map((r) => toReport(r.report, images.get(r.report.id) ?? [])),
    pagination: paginationOf(page, total),
  };
}

/** A report the viewer may see (its project's client, or staff); otherwise not found. */
export async function findReportForViewer(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
): Promise<{ report: Report; images: ImageRow[] }> {
  const [row] = await app.db
    .select({ report: progressReports })
    .from(progressReports)
    .innerJoin(projects, eq(projects.id, progressReports.projectId))
    .where(and(eq(progressReports.id, reportId), viewer.role === 'admin' ? undefined : eq(projects.clientId, viewer._id)))
    .limit(1);
  if (!row) throw notFound('Report not found');
  const images = (await imagesOf(app, [reportId])).get(reportId) ?? [];
  return { report: toReport(row.report, images), images };
}

/** One image of a report the viewer may see; otherwise not found. */
export async function findReportImageForViewer(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
  imageId: string,
): Promise<ImageRow> {
  const [row] = await app.db
    .select({ image: reportImages })
    .from(reportImages)
    .innerJoin(progressReports, eq(progressReports.id, reportImages.reportId))
    .innerJoin(projects, eq(projects.id, progressReports.projectId))
    .where(
      and(
        eq(reportImages.id, imageId),
        eq(reportImages.reportId, reportId),
        viewer.role === 'admin' ? undefined : eq(projects.clientId, viewer._id),
      ),
    )
    .limit(1);
  if (!row) throw notFound('Image not found');
  return row.image;
}
