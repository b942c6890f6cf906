import { auditOf } from '../audit/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { apiErrorSchema } from '../../../common/errors.ts';
import { recordRouteErrors as errors, registerArchiveRoutes } from '../../lib/archive-routes.ts';
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
import { listProjectManagers, setProjectManagers } from './project-managers.service.ts';
import { projectManagersResponseSchema, setProjectManagersBodySchema } from '../../../common/schemas/project-managers.ts';
import { clientProjectsJoinedRead, createProject, listClientProjects, updateProject, updateProjectStatus } from './projects.service.ts';

const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/projects',
    {
      // A project manager sees only assigned projects, so creating one is for owners and admins (decision 277).
      config: { access: { staff: 'projects.assign' } },
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
      config: { access: { staff: 'projects.read', client: true }, joinedSessionRead: clientProjectsJoinedRead },
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
      config: { access: { staff: 'projects.write' } },
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
      config: { access: { staff: 'projects.write' } },
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

  app.get(
    '/projects/:id/managers',
    {
      config: { access: { staff: 'projects.assign' } },
      schema: {
        tags: ['projects'],
        summary: "A project's project managers and every active project manager who could be chosen",
        params: projectIdParamsSchema,
        response: { 200: projectManagersResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listProjectManagers(app, request.params.id)) }),
  );

  app.put(
    '/projects/:id/managers',
    {
      config: { access: { staff: 'projects.assign' } },
      schema: {
        tags: ['projects'],
        summary: 'Make exactly these project managers the managers of a project (decision 277)',
        params: projectIdParamsSchema,
        body: setProjectManagersBodySchema,
        response: { 200: projectManagersResponseSchema, ...errors },
      },
    },
    async (request) => {
      const managers = await setProjectManagers(app, request.params.id, request.body.managerIds, auditOf(request));
      return { success: true as const, ...(await listProjectManagers(app, request.params.id)), managers };
    },
  );

  registerArchiveRoutes(app, {
    path: '/projects/:id',
    tag: 'projects',
    access: { staff: 'projects.write' },
    params: projectIdParamsSchema,
    response: projectResponseSchema,
    summaries: {
      archive: 'Archive a project: out of the default lists and read-only',
      restore: 'Restore an archived project',
      delete: 'Delete a project; one with reports, messages or files only when its name is typed, and then with everything',
    },
    setArchived: async (request, id, archived) => ({ project: await setProjectArchived(app, request.user!, id, archived, auditOf(request)) }),
    remove: (request, id, confirmName) => deleteProject(app, request.user!, id, confirmName, auditOf(request)),
  });
};

export default projectsRoutes;
