import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import {
  approvalIdParamsSchema,
  approvalListResponseSchema,
  approvalProjectParamsSchema,
  approvalResponseSchema,
  createApprovalBodySchema,
  decideApprovalBodySchema,
  waitingResponseSchema,
} from '../../../common/schemas/approvals.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { auditOf } from '../audit/audit.ts';
import { approvalCertificate, closeApproval, decideApproval, listProjectApprovals, requestApproval } from './approvals.service.ts';
import { waitingOn } from './waiting-on.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };

// Approvals (issue 25, decision 293).
const approvalsRoutes: FastifyPluginAsyncZod = async (app) => {
  const later = afterAnswer(app);

  app.post(
    '/approvals',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['approvals'],
        summary: 'Ask the client to approve a progress report, a completed milestone or a document version, by a due date',
        body: createApprovalBodySchema,
        response: { 201: approvalResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { approval, mailIds } = await requestApproval(app, request.user!, request.body, auditOf(request));
      if (mailIds.length) later(deliverQueuedMail(app, mailIds), 'approval request mail failed');
      return reply.status(201).send({ success: true as const, approval });
    },
  );

  app.get(
    '/approvals/waiting',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['approvals'],
        summary: "'Waiting on you': what waits on the caller's side, oldest first, overdue marked",
        response: { 200: waitingResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, items: await waitingOn(app, request.user!) }),
  );

  app.get(
    '/approvals/project/:projectId',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['approvals'],
        summary: "A project's approval requests and decisions, newest first",
        params: approvalProjectParamsSchema,
        response: { 200: approvalListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, approvals: await listProjectApprovals(app, request.user!, request.params.projectId) }),
  );

  app.post(
    '/approvals/:id/decision',
    {
      config: { access: { client: 'approvals.decide' } },
      schema: {
        tags: ['approvals'],
        summary: 'Approve or reject (with a comment) a request: once; the subject must be unchanged since it was asked',
        params: approvalIdParamsSchema,
        body: decideApprovalBodySchema,
        response: { 200: approvalResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { approval, mailId } = await decideApproval(app, request.user!, request.params.id, request.body, auditOf(request));
      later(deliverQueuedMail(app, [mailId]), 'approval decision mail failed');
      return { success: true as const, approval };
    },
  );

  app.post(
    '/approvals/:id/close',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['approvals'],
        summary: 'Withdraw a waiting request, or close a rejected one once followed up',
        params: approvalIdParamsSchema,
        response: { 200: approvalResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, approval: await closeApproval(app, request.user!, request.params.id, auditOf(request)) }),
  );

  app.get(
    '/approvals/:id/certificate',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['approvals'],
        summary: "The decision's one-page PDF certificate (who, when, from where, the subject's version and SHA-256)",
        params: approvalIdParamsSchema,
      },
    },
    async (request, reply) => {
      const { fileName, pdf } = await approvalCertificate(app, request.user!, request.params.id);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', contentDisposition('attachment', fileName))
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );
};

export default approvalsRoutes;
