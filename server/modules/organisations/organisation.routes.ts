import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import { clientIdParamsSchema } from '../../../common/schemas/clients.ts';
import { okResponse } from '../../../common/schemas/ok-response.ts';
import {
  inviteMemberBodySchema,
  inviteMemberResponseSchema,
  memberListResponseSchema,
  memberResponseSchema,
  updateMemberBodySchema,
} from '../../../common/schemas/organisation.ts';
import { recordRouteErrors as errors } from '../../lib/archive-routes.ts';
import type { Access } from '../../plugins/access.ts';
import { auditOf } from '../audit/audit.ts';
import { assertOrganisation, inviteMember, listMembers, removeMember, updateMember } from './members.service.ts';

/**
 * A client organisation's people (decision 279), managed from two sides with the same rules: its
 * admins from the portal (the organisation is the caller's own, so another organisation's member
 * is simply not found), and staff with clients.write for any client (`/users/clients/{id}/members`).
 */
const SIDES: { base: string; read: Access; write: Access; params: z.ZodObject; organisationOf: (request: FastifyRequest) => Promise<string> }[] = [
  {
    base: '/organisation/members',
    read: { client: 'members.manage' },
    write: { client: 'members.manage' },
    params: z.object({}),
    organisationOf: async (request) => request.user!.organisationId ?? request.user!._id,
  },
  {
    base: '/users/clients/:id/members',
    read: { staff: 'clients.read' },
    write: { staff: 'clients.write' },
    params: clientIdParamsSchema,
    organisationOf: async (request) => assertOrganisation(request.server, (request.params as { id: string }).id),
  },
];

const memberIdOf = (request: FastifyRequest) => (request.params as { memberId: string }).memberId;

const organisationRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const side of SIDES) {
    const withMember = side.params.extend({ memberId: z.uuid() });
    app.get(
      side.base,
      { config: { access: side.read }, schema: { tags: ['organisation'], summary: "The organisation's people and its projects", params: side.params, response: { 200: memberListResponseSchema, ...errors } } },
      async (request) => ({ success: true as const, ...(await listMembers(app, await side.organisationOf(request))) }),
    );

    app.post(
      side.base,
      {
        config: { access: side.write },
        schema: {
          tags: ['organisation'],
          summary: 'Invite a colleague with a role (and optional project limits); the invitation mail lets them choose a password',
          params: side.params,
          body: inviteMemberBodySchema,
          response: { 201: inviteMemberResponseSchema, 409: apiErrorSchema, ...errors },
        },
      },
      async (request, reply) => reply.status(201).send({ success: true as const, ...(await inviteMember(app, await side.organisationOf(request), request.body, auditOf(request))) }),
    );

    app.patch(
      `${side.base}/:memberId`,
      {
        config: { access: side.write },
        schema: {
          tags: ['organisation'],
          summary: "Change a colleague's role or limit them to some projects (an empty list: all projects)",
          params: withMember,
          body: updateMemberBodySchema,
          response: { 200: memberResponseSchema, 409: apiErrorSchema, ...errors },
        },
      },
      async (request) => ({ success: true as const, member: await updateMember(app, await side.organisationOf(request), memberIdOf(request), request.body, auditOf(request)) }),
    );

    app.delete(
      `${side.base}/:memberId`,
      {
        config: { access: side.write },
        schema: { tags: ['organisation'], summary: 'Remove a colleague: their sessions end at once', params: withMember, response: { 200: okResponse({}), 409: apiErrorSchema, ...errors } },
      },
      async (request) => {
        await removeMember(app, await side.organisationOf(request), memberIdOf(request), auditOf(request));
        return { success: true as const };
      },
    );
  }
};

export default organisationRoutes;
