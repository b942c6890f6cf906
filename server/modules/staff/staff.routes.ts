import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../../common/errors.ts';
import {
  staffInviteBodySchema,
  staffInviteResponseSchema,
  staffListResponseSchema,
  staffMemberResponseSchema,
  staffParamsSchema,
  staffRoleBodySchema,
  staffStatusBodySchema,
} from '../../../common/schemas/staff.ts';
import { auditOf } from '../audit/audit.ts';
import { changeStaffRole, inviteStaff, listStaff, setStaffStatus } from './staff.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema };
const changeErrors = { ...errors, 404: apiErrorSchema, 409: apiErrorSchema };

// Decision 275: owners only ('staff.manage').
const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/staff',
    {
      config: { access: { staff: 'staff.manage' } },
      schema: { tags: ['staff'], summary: 'Every staff account with its role, status, last sign-in and second factor', response: { 200: staffListResponseSchema, ...errors } },
    },
    async () => ({ success: true as const, staff: await listStaff(app) }),
  );

  app.post(
    '/staff',
    {
      config: { access: { staff: 'staff.manage' } },
      schema: {
        tags: ['staff'],
        summary: 'Invites a staff member with a role (a set-password link, e-mailed and returned)',
        body: staffInviteBodySchema,
        response: { 201: staffInviteResponseSchema, ...errors, 409: apiErrorSchema },
      },
    },
    async (request, reply) => reply.code(201).send({ success: true as const, ...(await inviteStaff(app, request.body, auditOf(request))) }),
  );

  app.patch(
    '/staff/:id/role',
    {
      config: { access: { staff: 'staff.manage' } },
      schema: { tags: ['staff'], summary: "Changes a staff member's role (the last active owner stays an owner)", params: staffParamsSchema, body: staffRoleBodySchema, response: { 200: staffMemberResponseSchema, ...changeErrors } },
    },
    async (request) => ({ success: true as const, member: await changeStaffRole(app, request.params.id, request.body.role, auditOf(request)) }),
  );

  app.patch(
    '/staff/:id/status',
    {
      config: { access: { staff: 'staff.manage' } },
      schema: {
        tags: ['staff'],
        summary: 'Deactivates (every session ends at once) or reactivates a staff account; the last active owner cannot be deactivated',
        params: staffParamsSchema,
        body: staffStatusBodySchema,
        response: { 200: staffMemberResponseSchema, ...changeErrors },
      },
    },
    async (request) => ({ success: true as const, member: await setStaffStatus(app, request.params.id, request.body.status, auditOf(request)) }),
  );
};

export default staffRoutes;
