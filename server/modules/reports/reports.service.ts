import { recordAudit, type AuditContext } from '../audit/audit.ts';
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import type { z } from 'zod';
import { AppError, notFound } from '../../../common/errors.ts';
import { paginationOf, type Pagination, type PaginationQuery } from '../../../common/schemas/pagination.ts';
import { createReportFieldsSchema, REPORT_IMAGE_MAX_BYTES, REPORT_IMAGES_MAX, reportUrls, type Report } from '../../../common/schemas/reports.ts';
import { projects } from '../../db/schema/projects.ts';
import { progressReports, reportImages } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { publishChange } from '../../events/portal-events.ts';
import type { AfterAnswer } from '../../lib/after-answer.ts';
import { deliverQueuedMail, queueMail } from '../../mail/mailer.ts';
import { keepStorableField } from '../../plugins/storable-input.ts';
import { claimNotification } from '../messages/message-notifications.ts';
import { reportMailRecipient, reportNotificationMail } from './report-mail.ts';
import { findProjectForViewer, type Viewer } from '../projects/projects.service.ts';
import { projectScope } from '../projects/project-scope.ts';
import { cleanFileName } from '../../lib/file-names.ts';
import { lockWritableProject } from '../projects/project-locks.ts';
import { deleteStoredReportImages, imageForPdf, reportImageRow, storeReportImage, type StoredReportImage } from './report-images.ts';
import { renderReportPdf, type PdfImage } from './report-pdf.ts';
import { publishedCompany } from '../site-content/published-company.ts';

interface NewReport {
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
export type ImageRow = typeof reportImages.$inferSelect;

export function toReport(row: ReportRow, images: ImageRow[]): Report {
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
    correctedAt: row.correctedAt?.toISOString() ?? null,
    version: row.version,
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
async function createReport(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
  input: NewReport,
  images: readonly StoredReportImage[],
  who: AuditContext,
): Promise<{ report: Report; mailId: string | null }> {
  const project = await findProjectForViewer(app, viewer, input.projectId);
  const now = app.clock.now();
  const { report, imageRows, mailId } = await app.db.transaction(async (tx) => {
    await lockWritableProject(tx, viewer, input.projectId);
    const [report] = await tx
      .insert(progressReports)
      .values({ ...input, id: reportId, team: input.team || publishedCompany(app).name, createdBy: viewer._id, createdAt: now })
      .returning();
    const imageRows =
      images.length === 0
        ? []
        : await tx
            .insert(reportImages)
            .values(
              images.map((img, position) => reportImageRow(reportId, img, position)),
            )
            .returning();
    await publishChange(tx, { type: 'report.created', clientId: project.clientId._id, projectId: project._id, id: reportId });
    await recordAudit(tx, who, { action: 'report.create', entityId: reportId, projectId: project._id, after: { ...input, images: images.length } });
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
        addedAt: now,
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

const IMAGE_MAX_MB = REPORT_IMAGE_MAX_BYTES / (1024 * 1024);

/**
 * Reads the multipart report: text fields, and every `images` file checked and stored one at a
 * time (at most one image in memory). On any failure the images stored so far are deleted.
 */
export async function receiveReport<S extends z.ZodType<object>>(app: FastifyInstance, parts: AsyncIterable<Multipart>, reportId: string, schema: S) {
  const fields: Record<string, string> = {};
  const stored: StoredReportImage[] = [];
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        keepStorableField(fields, part);
        continue;
      }
      const name = cleanFileName(part.filename, `image-${stored.length + 1}`);
      if (part.fieldname !== 'images') {
        part.file.resume();
        throw new AppError('BAD_REQUEST', `Unexpected file field "${part.fieldname}": send images as "images"`);
      }
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw new AppError('PAYLOAD_TOO_LARGE', `${name} is larger than ${IMAGE_MAX_MB} MB`);
        }
        throw err;
      }
      // A form's empty file input still sends a nameless, empty part.
      if (bytes.length === 0 && !part.filename) continue;
      stored.push(await storeReportImage(app, reportId, bytes, name));
    }
    const parsed = schema.safeParse(fields);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      throw new AppError('VALIDATION_FAILED', details[0] ? `${details[0].field}: ${details[0].message}` : 'The report is not valid', details);
    }
    return { fields: parsed.data as z.output<S>, images: stored };
  } catch (err) {
    await deleteStoredReportImages(app, stored);
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') {
      throw new AppError('PAYLOAD_TOO_LARGE', `A report can carry at most ${REPORT_IMAGES_MAX} images`);
    }
    throw err;
  }
}

/**
 * Creates a progress report from its multipart upload (the report's fields and its `images` files):
 * the images are checked and stored, then the report is recorded with them (createReport); its mail
 * to the client is delivered after the commit, handed to `later`. On any failure the stored images
 * are deleted.
 */
export async function createProgressReport(app: FastifyInstance, later: AfterAnswer, staff: Viewer, parts: AsyncIterable<Multipart>, who: AuditContext): Promise<Report> {
  const reportId = randomUUID();
  const { fields, images } = await receiveReport(app, parts, reportId, createReportFieldsSchema);
  try {
    const { report, mailId } = await createReport(app, staff, reportId, fields, images, who);
    if (mailId) later(deliverQueuedMail(app, [mailId]), 'report notification failed');
    return report;
  } catch (err) {
    await deleteStoredReportImages(app, images);
    throw err;
  }
}

/** A report the viewer may see (its project's client, or staff); otherwise not found. */
async function findReportForViewer(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
): Promise<{ report: Report; images: ImageRow[] }> {
  const [row] = await app.db
    .select({ report: progressReports })
    .from(progressReports)
    .innerJoin(projects, eq(projects.id, progressReports.projectId))
    .where(and(eq(progressReports.id, reportId), projectScope(viewer)))
    .limit(1);
  if (!row) throw notFound('Report not found');
  const images = (await imagesOf(app, [reportId])).get(reportId) ?? [];
  return { report: toReport(row.report, images), images };
}

/** One image of a report the viewer may see; otherwise not found. */
async function findReportImageForViewer(
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
    .where(and(eq(reportImages.id, imageId), eq(reportImages.reportId, reportId), projectScope(viewer)))
    .limit(1);
  if (!row) throw notFound('Image not found');
  return row.image;
}

/**
 * A report as a PDF with its images, for a viewer who may see it: the report and its images are
 * read now (one after another: the PDF is built for one person, the CPU is shared by everyone);
 * `render` makes the document.
 */
export async function prepareReportPdf(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
): Promise<{ fileName: string; render: () => ReturnType<typeof renderReportPdf> }> {
  const { report, images } = await findReportForViewer(app, viewer, reportId);
  const pdfImages: PdfImage[] = [];
  for (const image of images) {
    const stream = await app.storage.get(image.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    pdfImages.push({ name: image.originalName, ...(await imageForPdf(Buffer.concat(chunks))) });
  }
  const fileName = `progress-report-${report.projectCode || report.project}-${report.date}.pdf`.replace(/\s+/g, '-');
  return { fileName, render: () => renderReportPdf(publishedCompany(app), report, pdfImages) };
}

/** A stored report image (full size or its WebP thumbnail) for a viewer who may see it: where it is, its size, type and name. */
export async function findReportImageFile(
  app: FastifyInstance,
  viewer: Viewer,
  reportId: string,
  imageId: string,
  variant: 'full' | 'thumbnail',
): Promise<{ key: string; size: number; mimeType: string; name: string }> {
  const image = await findReportImageForViewer(app, viewer, reportId, imageId);
  const key = variant === 'full' ? image.storageKey : image.thumbnailKey;
  const stat = await app.storage.stat(key);
  if (!stat) throw new AppError('NOT_FOUND', 'Image not found');
  const name = variant === 'full' ? image.originalName : image.originalName.replace(/\.[^.]*$/, '') + '-thumbnail.webp';
  return { key, size: stat.size, mimeType: variant === 'full' ? image.mimeType : 'image/webp', name };
}
