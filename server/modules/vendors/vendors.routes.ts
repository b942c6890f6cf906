import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../../common/errors.ts';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '../../../common/form-guard.ts';
import {
  VENDOR_LIST_PAGE_SIZE,
  VENDOR_MESSAGES,
  vendorApplicationFieldsSchema,
  vendorDetailResponseSchema,
  vendorListQuerySchema,
  vendorListResponseSchema,
  vendorStatusUpdateSchema,
  vendorSubmitResponseSchema,
  type VendorApplicationFields,
  type VendorCopyState,
} from '../../../common/schemas/vendors.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { checkFormGuard, enforceFormRateLimit } from '../../lib/form-guard.ts';
import { forwardToFormMail } from './form-mail.ts';
import { mailConfigured } from '../../mail/mailer.ts';
import { readVendorUpload } from './vendor-upload.ts';
import {
  changeVendorStatus,
  createVendorApplication,
  getVendorApplication,
  getVendorDocument,
  listVendorApplications,
  listVendorDocuments,
} from './vendors.service.ts';
import { visitorAddressOf } from '../auth/admin-network.ts';

const idParams = z.object({ id: z.uuid() });
const documentParams = z.object({ id: z.uuid(), documentId: z.uuid() });

const vendorsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/vendors/applications',
    {
      config: { access: 'public' },
      schema: {
        tags: ['vendors'],
        summary: 'Register as a vendor (multipart: the text fields, certificationsFiles up to 5, companyProfile)',
        consumes: ['multipart/form-data'],
        response: { 200: vendorSubmitResponseSchema },
      },
    },
    async (request, reply) => {
      await enforceFormRateLimit(app, request, reply, 'vendor');
      const upload = await readVendorUpload(app, request, {
        guard: (fields) =>
          checkFormGuard(app, 'vendor', { formToken: fields[FORM_TOKEN_FIELD], homepageUrl: fields[HONEYPOT_FIELD] }),
      });
      if (upload.dropped) {
        // A bot: it learns nothing, and nothing is stored or sent.
        request.log.info('vendor registration dropped by the bot guard');
        // Its copy looks like a real one's would (sent when mail is configured).
        return { success: true as const, message: VENDOR_MESSAGES.submitted, reference: 'VR-RECEIVED', copy: mailConfigured(app) ? ('sent' as const) : ('none' as const) };
      }
      let created: { id: string; reference: string; copy: VendorCopyState };
      let fieldsForForward: VendorApplicationFields;
      try {
        // Browsers send line breaks in multipart text as CRLF; stored text uses LF.
        const text = Object.fromEntries(Object.entries(upload.fields).map(([k, v]) => [k, v.replace(/\r\n?/g, '\n')]));
        const parsed = vendorApplicationFieldsSchema.safeParse(text);
        if (!parsed.success) {
          const first = parsed.error.issues[0];
          throw new AppError(
            'VALIDATION_FAILED',
            first.message,
            parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
          );
        }
        fieldsForForward = parsed.data;
        created = await createVendorApplication(app, {
          id: upload.applicationId,
          fields: parsed.data,
          documents: upload.documents,
          ip: visitorAddressOf(request),
        });
      } catch (err) {
        await upload.discard();
        throw err;
      }
      if (app.config.FORMMAIL_URL) {
        // After the answer: the visitor never waits for the outside service.
        const forward = { reference: created.reference, fields: fieldsForForward };
        void listVendorDocuments(app, created.id)
          .then((documents) => forwardToFormMail(app, { ...forward, documents }))
          .catch((err) => app.log.warn({ err }, 'form-mail forward failed'));
      }
      return { success: true as const, message: VENDOR_MESSAGES.submitted, reference: created.reference, copy: created.copy };
    },
  );

  app.get(
    '/vendors/applications',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: {
        tags: ['vendors'],
        summary: 'Vendor applications, newest first, optionally one status',
        querystring: vendorListQuerySchema,
        response: { 200: vendorListResponseSchema },
      },
    },
    async (request) => {
      const { applications, total } = await listVendorApplications(app, request.query);
      return { success: true as const, applications, total, page: request.query.page, pageSize: VENDOR_LIST_PAGE_SIZE };
    },
  );

  app.get(
    '/vendors/applications/:id',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: {
        tags: ['vendors'],
        summary: 'One vendor application with every field, its documents and status history',
        params: idParams,
        response: { 200: vendorDetailResponseSchema },
      },
    },
    async (request) => {
      const application = await getVendorApplication(app, request.params.id);
      if (!application) throw notFound('Vendor application not found');
      return { success: true as const, application };
    },
  );

  app.put(
    '/vendors/applications/:id/status',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: {
        tags: ['vendors'],
        summary: 'Move an application along the pipeline, with a staff note',
        params: idParams,
        body: vendorStatusUpdateSchema,
        response: { 200: vendorDetailResponseSchema },
      },
    },
    async (request) => {
      const user = request.user!;
      const application = await changeVendorStatus(app, request.params.id, request.body, {
        _id: user._id,
        name: user.name,
      });
      return { success: true as const, application };
    },
  );

  app.get(
    '/vendors/applications/:id/documents/:documentId',
    {
      config: { access: { staff: 'submissions.read' } },
      schema: { tags: ['vendors'], summary: 'Download one document of an application', params: documentParams },
    },
    async (request, reply) => {
      const doc = await getVendorDocument(app, request.params.id, request.params.documentId);
      if (!doc) throw notFound('Document not found');
      const stream = await app.storage.get(doc.storageKey);
      reply
        .header('Content-Type', doc.mimeType)
        .header('Content-Length', String(doc.size))
        .header('Content-Disposition', contentDisposition('attachment', doc.originalName))
        .header('Cache-Control', 'private, no-store');
      return reply.send(stream);
    },
  );
};

export default vendorsRoutes;
