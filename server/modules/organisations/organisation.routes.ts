import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okResponse } from '../../../common/schemas/ok-response.ts';
import { apiErrorSchema } from '../../../common/errors.ts';
import {
  inviteMemberBodySchema,
  inviteMemberResponseSchema,
  memberIdParamsSchema,
  memberListResponseSchema,
  memberResponseSchema,
  updateMemberBodySchema,
} from '../../../common/schemas/organisation.ts';
import { recordRouteErrors as errors } from '../../lib/archive-routes.ts';
import { auditOf } from '../audit/audit.ts';
import { inviteMember, listMembers, removeMember, updateMember } from './members.service.ts';

// A client organisation's admins manage its people from the portal (decision 279). The
// organisation is always the caller's own (from the session), so another organisation's member
// is simply not found.
const MANAGE = { access: { client: 'members.manage' } } as const;

const organisationRoutes: FastifyPluginAsyncZod = async (app) => {
  const organisationOf = (request: { user: { organisationId: string | null; _id: string } | null }) => request.user!.organisationId ?? request.user!._id;

  app.get(
    '/organisation/members',
    { config: MANAGE, schema: { tags: ['organisation'], summary: "The organisation's people and its projects", response: { 200: memberListResponseSchema, ...errors } } },
    async (request) => ({ success: true as const, ...(await listMembers(app, organisationOf(request))) }),
  );

  app.post(
    '/organisation/members',
    {
      config: MANAGE,
      schema: {
        tags: ['organisation'],
        summary: 'Invite a colleague with a role (and optional project limits); the invitation mail lets them choose a password',
        body: inviteMemberBodySchema,
        response: { 201: inviteMemberResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send({ success: true as const, ...(await inviteMember(app, organisationOf(request), request.body, auditOf(request))) }),
  );

  app.patch(
    '/organisation/members/:id',
    {
      config: MANAGE,
      schema: {
        tags: ['organisation'],
        summary: "Change a colleague's role or limit them to some projects (an empty list: all projects)",
        params: memberIdParamsSchema,
        body: updateMemberBodySchema,
        response: { 200: memberResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, member: await updateMember(app, organisationOf(request), request.params.id, request.body, auditOf(request)) }),
  );

  app.delete(
    '/organisation/members/:id',
    {
      config: MANAGE,
      schema: {
        tags: ['organisation'],
        summary: 'Remove a colleague: their sessions end at once',
        params: memberIdParamsSchema,
        response: { 200: okResponse({}), 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      await removeMember(app, organisationOf(request), request.params.id, auditOf(request));
      return { success: true as const };
    },
  );
};

export default organisationRoutes;
