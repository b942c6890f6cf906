import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import {
  auditFilterOptionsResponseSchema,
  auditFilterSchema,
  auditListQuerySchema,
  auditListResponseSchema,
} from '../../../common/schemas/audit.ts';
import { todayIso } from '../../../common/dates.ts';
import { auditCsv, auditFilterOptions, listAuditEvents } from './audit.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };

// Decisions 270 and 272: the 'audit.read' permission (owner and admin).
const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/audit/events',
    {
      config: { access: { staff: 'audit.read' } },
      schema: {
        tags: ['audit'],
        summary: 'Who did what: one page of changes, newest first, filtered',
        querystring: auditListQuerySchema,
        response: { 200: auditListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listAuditEvents(app, request.query)) }),
  );

  app.get(
    '/audit/filters',
    {
      config: { access: { staff: 'audit.read' } },
      schema: {
        tags: ['audit'],
        summary: 'The people and projects the audit log can be filtered by',
        response: { 200: auditFilterOptionsResponseSchema, ...errors },
      },
    },
    async () => ({ success: true as const, ...(await auditFilterOptions(app)) }),
  );

  app.get(
    '/audit/events.csv',
    {
      config: { access: { staff: 'audit.read' } },
      schema: {
        tags: ['audit'],
        summary: 'The filtered audit log as a CSV download (streamed)',
        querystring: auditFilterSchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) =>
      reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="audit-log-${todayIso(app.clock.now())}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(Readable.from(auditCsv(app, request.query))),
  );
};

export default auditRoutes;
