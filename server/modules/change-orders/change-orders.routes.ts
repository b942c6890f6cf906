import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema, notFound } from '../../../common/errors.ts';
import {
  CHANGE_ORDER_ATTACHMENT_MAX_BYTES,
  changeOrderAttachmentParamsSchema,
  changeOrderListResponseSchema,
  changeOrderParamsSchema,
  changeOrderProjectParamsSchema,
  changeOrderResponseSchema,
  createChangeOrderBodySchema,
  decideChangeOrderBodySchema,
  updateChangeOrderBodySchema,
} from '../../../common/schemas/change-orders.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { recordRouteErrors as errors } from '../../lib/archive-routes.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { auditOf } from '../audit/audit.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { okResponse } from '../../../common/schemas/ok-response.ts';
import { STORED_FILE_POLICY } from '../../plugins/security-headers.ts';
import { addChangeOrderAttachment, findChangeOrderAttachmentFile, removeChangeOrderAttachment } from './change-order-attachments.service.ts';
import { changeOrderCertificate } from './change-order-certificate.ts';
import { listChangeOrders } from './change-orders-read.ts';
import {
  createChangeOrder,
  decideChangeOrder,
  deleteChangeOrder,
  sendChangeOrder,
  updateChangeOrder,
  withdrawChangeOrder,
} from './change-orders.service.ts';

const uploadErrors = { ...errors, 409: apiErrorSchema, 413: apiErrorSchema, 415: apiErrorSchema };
// One multipart part is the file (decision 296); the reader stops at the attachment limit too.
const ATTACHMENT_UPLOAD_LIMITS = { fileSize: CHANGE_ORDER_ATTACHMENT_MAX_BYTES, files: 1, fields: 4, parts: 5 };

// Change orders (issue 25, decision 294): staff draft, correct, send and withdraw; the client's approver decides.
const changeOrdersRoutes: FastifyPluginAsyncZod = async (app) => {
  const later = afterAnswer(app);

  app.get(
    '/change-orders/project/:projectId',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['change-orders'],
        summary: "A project's change orders (a client sees those sent) and its contract sum and end date history",
        params: changeOrderProjectParamsSchema,
        response: { 200: changeOrderListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listChangeOrders(app, request.user!, request.params.projectId)) }),
  );

  app.post(
    '/change-orders/project/:projectId',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Draft a change order on a project',
        params: changeOrderProjectParamsSchema,
        body: createChangeOrderBodySchema,
        response: { 201: changeOrderResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const changeOrder = await createChangeOrder(app, request.user!, request.params.projectId, request.body, auditOf(request));
      return reply.status(201).send({ success: true as const, changeOrder });
    },
  );

  app.patch(
    '/change-orders/:id',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Correct a draft change order',
        params: changeOrderParamsSchema,
        body: updateChangeOrderBodySchema,
        response: { 200: changeOrderResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, changeOrder: await updateChangeOrder(app, request.user!, request.params.id, request.body, auditOf(request)) }),
  );

  app.post(
    '/change-orders/:id/send',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Send a draft change order to the client for a decision',
        params: changeOrderParamsSchema,
        response: { 200: changeOrderResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const { changeOrder, mailIds } = await sendChangeOrder(app, request.user!, request.params.id, auditOf(request));
      if (mailIds.length) later(deliverQueuedMail(app, mailIds), 'change order mail failed');
      return { success: true as const, changeOrder };
    },
  );

  app.post(
    '/change-orders/:id/withdraw',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Withdraw a change order before it is decided',
        params: changeOrderParamsSchema,
        response: { 200: changeOrderResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, changeOrder: await withdrawChangeOrder(app, request.user!, request.params.id, auditOf(request)) }),
  );

  app.post(
    '/change-orders/:id/decision',
    {
      config: { access: { client: 'approvals.decide' } },
      schema: {
        tags: ['change-orders'],
        summary: "The client's approver approves or declines a sent change order (a comment is required to decline)",
        params: changeOrderParamsSchema,
        body: decideChangeOrderBodySchema,
        response: { 200: changeOrderResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const { changeOrder, mailId } = await decideChangeOrder(app, request.user!, request.params.id, request.body, auditOf(request));
      later(deliverQueuedMail(app, [mailId]), 'change order mail failed');
      return { success: true as const, changeOrder };
    },
  );

  app.delete(
    '/change-orders/:id',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Delete a draft change order with its attachments (a sent one is withdrawn instead)',
        params: changeOrderParamsSchema,
        response: { 200: okResponse({}), 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      await deleteChangeOrder(app, request.user!, request.params.id, auditOf(request));
      return { success: true as const };
    },
  );

  app.post(
    '/change-orders/:id/attachments',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Attach a file to a draft change order (multipart "file", up to 25 MB, at most 10 files; PDF, images, Office, DWG/DXF, ZIP)',
        consumes: ['multipart/form-data'],
        params: changeOrderParamsSchema,
        response: { 201: changeOrderResponseSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const parts = () => {
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the attachment as multipart/form-data');
        return request.parts({ limits: ATTACHMENT_UPLOAD_LIMITS });
      };
      const changeOrder = await addChangeOrderAttachment(app, request.user!, request.params.id, parts, auditOf(request));
      return reply.status(201).send({ success: true as const, changeOrder });
    },
  );

  app.delete(
    '/change-orders/:id/attachments/:attachmentId',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['change-orders'],
        summary: 'Remove an attachment from a draft change order',
        params: changeOrderAttachmentParamsSchema,
        response: { 200: changeOrderResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      changeOrder: await removeChangeOrderAttachment(app, request.user!, request.params.id, request.params.attachmentId, auditOf(request)),
    }),
  );

  app.get(
    '/change-orders/:id/attachments/:attachmentId/file',
    {
      config: { access: { staff: 'projects.read', client: true } },
      compress: false,
      schema: {
        tags: ['change-orders'],
        summary: "A change order attachment's file, as a download (a client: once the change order is sent)",
        params: changeOrderAttachmentParamsSchema,
      },
    },
    async (request, reply) => {
      const file = await findChangeOrderAttachmentFile(app, request.user!, request.params.id, request.params.attachmentId);
      let stream;
      try {
        stream = await app.storage.get(file.storageKey);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        request.log.error({ key: file.storageKey }, 'change order attachment bytes missing from storage');
        throw notFound('Attachment not found');
      }
      return reply
        .type(file.contentType)
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', contentDisposition('attachment', file.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', STORED_FILE_POLICY)
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        .header('Cache-Control', 'private, no-store')
        .header('ETag', `"${file.sha256}"`)
        .send(stream);
    },
  );

  app.get(
    '/change-orders/:id/certificate',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['change-orders'],
        summary: "A decided change order's one-page PDF certificate (what changed, the decision, who, when, from where)",
        params: changeOrderParamsSchema,
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await changeOrderCertificate(app, request.user!, request.params.id);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', contentDisposition('attachment', fileName))
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );
};

export default changeOrdersRoutes;
