import { auditOf } from '../audit/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createTimelineBodySchema,
  timelineIdParamsSchema,
  timelineListResponseSchema,
  timelineProjectParamsSchema,
  timelineResponseSchema,
  updateTimelineBodySchema,
} from '../../../common/schemas/timelines.ts';
import { createTimeline, listProjectTimelines, updateTimeline } from './timelines.service.ts';
import { recordRouteErrors as errors } from '../../lib/archive-routes.ts';


// The specification's path name for timelines is "gantt-charts".
const timelinesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/gantt-charts/project/:projectId',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['timelines'],
        summary: "A project's timeline records",
        params: timelineProjectParamsSchema,
        response: { 200: timelineListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const timelines = await listProjectTimelines(app, request.user!, request.params.projectId);
      return { success: true as const, timelines };
    },
  );

  app.post(
    '/gantt-charts',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['timelines'],
        summary: 'Add a timeline record to a project',
        body: createTimelineBodySchema,
        response: { 201: timelineResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const timeline = await createTimeline(app, request.user!, request.body, auditOf(request));
      return reply.status(201).send({ success: true as const, timeline });
    },
  );

  app.put(
    '/gantt-charts/:id',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['timelines'],
        summary: "Replace a timeline record's title and tasks",
        params: timelineIdParamsSchema,
        body: updateTimelineBodySchema,
        response: { 200: timelineResponseSchema, ...errors },
      },
    },
    async (request) => {
      const timeline = await updateTimeline(app, request.user!, request.params.id, request.body, auditOf(request));
      return { success: true as const, timeline };
    },
  );
};

export default timelinesRoutes;
