import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import {
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
import { changeOrderCertificate, createChangeOrder, decideChangeOrder, listChangeOrders, sendChangeOrder, updateChangeOrder, withdrawChangeOrder } from './change-orders.service.ts';

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
