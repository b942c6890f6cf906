import { auditOf } from '../audit/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { apiErrorSchema } from '../../../common/errors.ts';
import { deleteBodySchema, deleteResponseSchema } from '../../../common/schemas/archive.ts';
import { deleteProject, setProjectArchived } from './project-archive.service.ts';
import {
  createProjectBodySchema,
  projectClientParamsSchema,
  projectIdParamsSchema,
  projectListQuerySchema,
  projectListResponseSchema,
  projectResponseSchema,
  updateProjectBodySchema,
  updateProjectStatusBodySchema,
} from '../../../common/schemas/projects.ts';
import { clientProjectsJoinedRead, createProject, listClientProjects, updateProject, updateProjectStatus } from './projects.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/projects',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['projects'],
        summary: 'Create a project for a client',
        body: createProjectBodySchema,
        response: { 201: projectResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const project = await createProject(app, request.user!, request.body, auditOf(request));
      return reply.status(201).send({ success: true as const, project });
    },
  );

  app.get(
    '/projects/client/:clientId',
    {
      // The page is read in the same statement as the session (decision 171).
      config: { access: 'authenticated', joinedSessionRead: clientProjectsJoinedRead },
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['projects'],
        summary: "One page of a client's projects (a client may ask only for its own)",
        params: projectClientParamsSchema,
        querystring: projectListQuerySchema,
        response: { 200: projectListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const result = await listClientProjects(app, request.user!, request.params.clientId, request.query, request.joinedRead);
      return { success: true as const, ...result };
    },
  );

  app.put(
    '/projects/:id/status',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['projects'],
        summary: "Change a project's status",
        params: projectIdParamsSchema,
        body: updateProjectStatusBodySchema,
        response: { 200: projectResponseSchema, ...errors },
      },
    },
    async (request) => {
      const project = await updateProjectStatus(app, request.user!, request.params.id, request.body.status, auditOf(request));
      return { success: true as const, project };
    },
  );

  app.patch(
    '/projects/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['projects'],
        summary: "Correct a project's name, code, description, dates, budget or status",
        params: projectIdParamsSchema,
        body: updateProjectBodySchema,
        response: { 200: projectResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, project: await updateProject(app, request.user!, request.params.id, request.body, auditOf(request)) }),
  );

  for (const [action, archived] of [['archive', true], ['restore', false]] as const) {
    app.post(
      `/projects/:id/${action}`,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['projects'],
          summary: archived ? 'Archive a project: out of the default lists and read-only' : 'Restore an archived project',
          params: projectIdParamsSchema,
          response: { 200: projectResponseSchema, ...errors },
        },
      },
      async (request) => ({ success: true as const, project: await setProjectArchived(app, request.user!, request.params.id, archived, auditOf(request)) }),
    );
  }

  app.delete(
    '/projects/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['projects'],
        summary: 'Delete a project; one with reports, messages or files only when its name is typed, and then with everything',
        params: projectIdParamsSchema,
        body: deleteBodySchema,
        response: { 200: deleteResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, deleted: await deleteProject(app, request.params.id, request.body.confirmName, auditOf(request)) }),
  );
};

export default projectsRoutes;
