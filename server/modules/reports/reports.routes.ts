import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema } from '../../../common/errors.ts';
import { paginationQuerySchema } from '../../../common/schemas/pagination.ts';
import {
  createReportFieldsSchema,
  REPORT_IMAGE_MAX_BYTES,
  REPORT_IMAGES_MAX,
  reportIdParamsSchema,
  reportMailSettingBodySchema,
  reportMailSettingResponseSchema,
  reportImageParamsSchema,
  reportListResponseSchema,
  reportProjectParamsSchema,
  reportResponseSchema,
} from '../../../common/schemas/reports.ts';
import { contentDisposition } from './content-disposition.ts';
import { cleanFileName, deleteStoredReportImages, imageForPdf, storeReportImage, type StoredReportImage } from './report-images.ts';
import { renderReportPdf } from './report-pdf.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { createReport, findReportForViewer, findReportImageForViewer, getReportMailSetting, listProjectReports, setReportMailSetting } from './reports.service.ts';
import { assertStorableField } from '../../plugins/storable-input.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const IMAGE_MAX_MB = REPORT_IMAGE_MAX_BYTES / (1024 * 1024);
// Signed-in files must not outlive the session in a shared browser (decision 114).
const IMAGE_CACHE_CONTROL = 'private, no-store';

/**
 * Reads the multipart report: text fields, and every `images` file checked and stored one at a
 * time (at most one image in memory). On any failure the images stored so far are deleted.
 */
async function receiveReport(app: FastifyInstance, request: FastifyRequest, reportId: string) {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the report as multipart/form-data');
  }
  const fields: Record<string, string> = {};
  const stored: StoredReportImage[] = [];
  try {
    const parts = request.parts({ limits: { fileSize: REPORT_IMAGE_MAX_BYTES, files: REPORT_IMAGES_MAX } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') {
          assertStorableField(part.fieldname, part.value);
          fields[part.fieldname] = part.value;
        }
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
    const parsed = createReportFieldsSchema.safeParse(fields);
    if (!parsed.success) {
      const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      throw new AppError('VALIDATION_FAILED', details[0] ? `${details[0].field}: ${details[0].message}` : 'The report is not valid', details);
    }
    return { fields: parsed.data, images: stored };
  } catch (err) {
    await deleteStoredReportImages(app, stored);
    if ((err as { code?: string }).code === 'FST_FILES_LIMIT') {
      throw new AppError('PAYLOAD_TOO_LARGE', `A report can carry at most ${REPORT_IMAGES_MAX} images`);
    }
    throw err;
  }
}

const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Report mails are delivered after the answer is sent; closing the app waits for those in flight.
  const deliveries = new Set<Promise<unknown>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...deliveries]);
  });

  app.get(
    '/reports/mail-setting',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['reports'],
        summary: 'Whether the signed-in user is e-mailed about new progress reports (clients; Account dialog)',
        response: { 200: reportMailSettingResponseSchema, 401: apiErrorSchema },
      },
    },
    async (request) => ({ success: true as const, reportMail: await getReportMailSetting(app, request.user!._id) }),
  );

  app.put(
    '/reports/mail-setting',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['reports'],
        summary: 'Turns the e-mails about new progress reports on or off for the signed-in user',
        body: reportMailSettingBodySchema,
        response: { 200: reportMailSettingResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, reportMail: await setReportMailSetting(app, request.user!._id, request.body.reportMail) }),
  );

  app.post(
    '/reports',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['reports'],
        summary: 'Create a progress report (multipart: report fields plus repeated "images" files)',
        consumes: ['multipart/form-data'],
        response: { 201: reportResponseSchema, 413: apiErrorSchema, 415: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const reportId = randomUUID();
      const { fields, images } = await receiveReport(app, request, reportId);
      try {
        const { report, mailId } = await createReport(app, request.user!, reportId, fields, images);
        if (mailId) {
          const p = deliverQueuedMail(app, [mailId])
            .catch((err) => app.log.error({ err }, 'report notification failed'))
            .finally(() => deliveries.delete(p));
          deliveries.add(p);
        }
        return reply.status(201).send({ success: true as const, report });
      } catch (err) {
        await deleteStoredReportImages(app, images);
        throw err;
      }
    },
  );

  app.get(
    '/reports/project/:projectId',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['reports'],
        summary: "One page of a project's progress reports, newest first",
        params: reportProjectParamsSchema,
        querystring: paginationQuerySchema,
        response: { 200: reportListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const result = await listProjectReports(app, request.user!, request.params.projectId, request.query);
      return { success: true as const, ...result };
    },
  );

  app.get(
    '/reports/:id/pdf',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['reports'],
        summary: 'The report as a PDF with its images',
        // A binary answer: no JSON response schema (errors still take the one error shape).
        params: reportIdParamsSchema,
      },
    },
    async (request, reply) => {
      const { report, images } = await findReportForViewer(app, request.user!, request.params.id);
      // Images one after another: the PDF is built for one person, the CPU is shared by everyone.
      const pdfImages = [];
      for (const image of images) {
        const stream = await app.storage.get(image.storageKey);
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        pdfImages.push({ name: image.originalName, ...(await imageForPdf(Buffer.concat(chunks))) });
      }
      const fileName = `progress-report-${report.projectCode || report.project}-${report.date}.pdf`.replace(/\s+/g, '-');
      reply
        .type('application/pdf')
        .header('Content-Disposition', contentDisposition('attachment', fileName))
        .header('Cache-Control', 'private, no-store');
      return reply.send(await renderReportPdf(report, pdfImages));
    },
  );

  for (const variant of ['full', 'thumbnail'] as const) {
    app.get(
      variant === 'full' ? '/reports/:id/images/:imageId' : '/reports/:id/images/:imageId/thumbnail',
      {
        config: { access: 'authenticated' },
        schema: {
          tags: ['reports'],
          summary: variant === 'full' ? "A report's image at full size" : "A report image's thumbnail (WebP)",
          params: reportImageParamsSchema,
        },
      },
      async (request, reply) => {
        const image = await findReportImageForViewer(app, request.user!, request.params.id, request.params.imageId);
        const key = variant === 'full' ? image.storageKey : image.thumbnailKey;
        const stat = await app.storage.stat(key);
        if (!stat) throw new AppError('NOT_FOUND', 'Image not found');
        const name = variant === 'full' ? image.originalName : image.originalName.replace(/\.[^.]*$/, '') + '-thumbnail.webp';
        reply
          .type(variant === 'full' ? image.mimeType : 'image/webp')
          .header('Content-Length', String(stat.size))
          .header('Content-Disposition', contentDisposition('inline', name))
          .header('X-Content-Type-Options', 'nosniff')
          .header('Cache-Control', IMAGE_CACHE_CONTROL);
        return reply.send(await app.storage.get(key));
      },
    );
  }
};

export default reportsRoutes;
