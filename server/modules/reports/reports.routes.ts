import { auditOf } from '../audit/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema } from '../../../common/errors.ts';
import { STORED_FILE_POLICY } from '../../plugins/security-headers.ts';
import { paginationQuerySchema } from '../../../common/schemas/pagination.ts';
import {
  REPORT_IMAGE_MAX_BYTES,
  REPORT_IMAGES_MAX,
  reportIdParamsSchema,
  reportMailSettingBodySchema,
  reportMailSettingResponseSchema,
  reportImageParamsSchema,
  reportListResponseSchema,
  reportProjectParamsSchema,
  reportResponseSchema,
  reportVersionsResponseSchema,
  updateReportResponseSchema,
} from '../../../common/schemas/reports.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { correctProgressReport, listReportVersions } from './report-corrections.ts';
import {
  createProgressReport,
  findReportImageFile,
  getReportMailSetting,
  listProjectReports,
  prepareReportPdf,
  setReportMailSetting,
} from './reports.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
// Signed-in files must not outlive the session in a shared browser (decision 114).
const IMAGE_CACHE_CONTROL = 'private, no-store';

const reportsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Report mails are delivered after the answer is sent; closing the app waits for those in flight.
  const later = afterAnswer(app);

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
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['reports'],
        summary: 'Create a progress report (multipart: report fields plus repeated "images" files)',
        consumes: ['multipart/form-data'],
        response: { 201: reportResponseSchema, 413: apiErrorSchema, 415: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the report as multipart/form-data');
      }
      const parts = request.parts({ limits: { fileSize: REPORT_IMAGE_MAX_BYTES, files: REPORT_IMAGES_MAX } });
      const report = await createProgressReport(app, later, request.user!, parts, auditOf(request));
      return reply.status(201).send({ success: true as const, report });
    },
  );

  app.patch(
    '/reports/:id',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['reports'],
        summary:
          'Correct a progress report (multipart: any report field, new "images" files, "removeImages" ids, "notifyClient"); the replaced text is kept as a version',
        consumes: ['multipart/form-data'],
        params: reportIdParamsSchema,
        response: { 200: updateReportResponseSchema, 413: apiErrorSchema, 415: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      // Read once the report is known to exist: a missing id is 404 whatever the body.
      const readParts = () => {
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the correction as multipart/form-data');
        return request.parts({ limits: { fileSize: REPORT_IMAGE_MAX_BYTES, files: REPORT_IMAGES_MAX } });
      };
      return { success: true as const, ...(await correctProgressReport(app, later, request.user!, request.params.id, readParts, auditOf(request))) };
    },
  );

  app.get(
    '/reports/:id/versions',
    {
      config: { access: { staff: 'projects.read' } },
      schema: {
        tags: ['reports'],
        summary: "A report's earlier versions, newest first, with who wrote each and when (staff)",
        params: reportIdParamsSchema,
        response: { 200: reportVersionsResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listReportVersions(app, request.user!, request.params.id)) }),
  );

  app.get(
    '/reports/project/:projectId',
    {
      config: { access: { staff: 'projects.read', client: true } },
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
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['reports'],
        summary: 'The report as a PDF with its images',
        // A binary answer: no JSON response schema (errors still take the one error shape).
        params: reportIdParamsSchema,
      },
    },
    async (request, reply) => {
      const pdf = await prepareReportPdf(app, request.user!, request.params.id);
      reply
        .type('application/pdf')
        .header('Content-Disposition', contentDisposition('attachment', pdf.fileName))
        .header('Cache-Control', 'private, no-store');
      return reply.send(await pdf.render());
    },
  );

  for (const variant of ['full', 'thumbnail'] as const) {
    app.get(
      variant === 'full' ? '/reports/:id/images/:imageId' : '/reports/:id/images/:imageId/thumbnail',
      {
        config: { access: { staff: 'projects.read', client: true } },
        schema: {
          tags: ['reports'],
          summary: variant === 'full' ? "A report's image at full size" : "A report image's thumbnail (WebP)",
          params: reportImageParamsSchema,
        },
      },
      async (request, reply) => {
        const image = await findReportImageFile(app, request.user!, request.params.id, request.params.imageId, variant);
        reply
          .type(image.mimeType)
          .header('Content-Length', String(image.size))
          .header('Content-Disposition', contentDisposition('inline', image.name))
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', STORED_FILE_POLICY)
          .header('Cache-Control', IMAGE_CACHE_CONTROL);
        return reply.send(await app.storage.get(image.key));
      },
    );
  }
};

export default reportsRoutes;
