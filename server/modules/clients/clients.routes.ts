import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import { recordRouteErrors as errors, registerArchiveRoutes } from '../../lib/archive-routes.ts';
import {
  clientIdParamsSchema,
  clientListQuerySchema,
  clientListResponseSchema,
  clientResponseSchema,
  createClientBodySchema,
  createClientResponseSchema,
  updateClientBodySchema,
  updateClientResponseSchema,
  updateClientStatusBodySchema,
  usernameCheckQuerySchema,
  usernameCheckResponseSchema,
} from '../../../common/schemas/clients.ts';
import { auditOf } from '../audit/audit.ts';
import { deleteClient, setClientArchived } from './client-archive.service.ts';
import { checkUsername, createClient, listClients, updateClient, updateClientStatus } from './clients.service.ts';

// Clients are users with the client role; the specification puts them under /users/clients.
const clientsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/users/clients',
    {
      config: { access: { staff: 'clients.read' } },
      schema: {
        tags: ['clients'],
        summary: 'One page of clients with their unread and project counts',
        querystring: clientListQuerySchema,
        response: { 200: clientListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listClients(app, request.user!, request.query)) }),
  );

  app.post(
    '/users/clients',
    {
      // Creating clients, and archiving or deleting one (with projects a project manager may not
      // see), is for owners and admins (decision 277).
      config: { access: { staff: 'projects.assign' } },
      schema: {
        tags: ['clients'],
        summary: 'Create a client and send the invitation to choose a password',
        body: createClientBodySchema,
        response: { 201: createClientResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createClient(app, request.user!, request.body, auditOf(request));
      return reply.status(201).send({ success: true as const, ...created });
    },
  );

  app.get(
    '/users/clients/username-check',
    {
      // The add-client form's check: as creating a client.
      config: { access: { staff: 'projects.assign' } },
      schema: {
        tags: ['clients'],
        summary: 'Whether a username is free, and a free one made from it or from the client name (add-client form)',
        querystring: usernameCheckQuerySchema,
        response: { 200: usernameCheckResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, ...(await checkUsername(app, request.query)) };
    },
  );

  app.put(
    '/users/clients/:id/status',
    {
      config: { access: { staff: 'clients.write' } },
      schema: {
        tags: ['clients'],
        summary: "Change a client's status (new, in-progress, completed)",
        params: clientIdParamsSchema,
        body: updateClientStatusBodySchema,
        response: { 200: clientResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, client: await updateClientStatus(app, request.user!, request.params.id, request.body.status, auditOf(request)) }),
  );

  app.patch(
    '/users/clients/:id',
    {
      config: { access: { staff: 'clients.write' } },
      schema: {
        tags: ['clients'],
        summary: "Correct a client's name, e-mail address, username or status (a pending invitation follows a new address or username)",
        params: clientIdParamsSchema,
        body: updateClientBodySchema,
        response: { 200: updateClientResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await updateClient(app, request.user!, request.params.id, request.body, auditOf(request))) }),
  );

  registerArchiveRoutes(app, {
    path: '/users/clients/:id',
    tag: 'clients',
    access: { staff: 'projects.assign' },
    params: clientIdParamsSchema,
    response: clientResponseSchema,
    summaries: {
      archive: 'Archive a client: out of the default list, read-only, signed out and unable to sign in',
      restore: 'Restore an archived client: listed, writable and able to sign in again',
      delete: 'Delete a client with its projects; one with reports, messages or files only when its name is typed',
    },
    setArchived: async (request, id, archived) => ({ client: await setClientArchived(app, request.user!, id, archived, auditOf(request)) }),
    remove: (request, id, confirmName) => deleteClient(app, id, confirmName, auditOf(request)),
  });
};

export default clientsRoutes;
