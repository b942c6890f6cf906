import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  setupAdminBodySchema,
  setupAdminResponseSchema,
  setupInspectBodySchema,
  setupInspectResponseSchema,
  setupStatusResponseSchema,
} from '../../../common/schemas/setup.ts';
import { clientAddressOf, isAdminAddressAllowed } from '../auth/admin-network.ts';
import { setSessionCookies } from '../auth/auth-cookies.ts';
import { completeSetup, inspectSetupLink, isSetupOpen } from './setup.service.ts';

// First-run set-up (decision 160). Public routes: whoever holds the printed link is the operator;
// each route still refuses callers outside ADMIN_ALLOWED_CIDRS, like the admin sign-in.

const callerOf = (request: FastifyRequest) => ({
  ip: clientAddressOf(request.server.config, request),
  userAgent: request.headers['user-agent'],
  addressAllowed: isAdminAddressAllowed(request.server, request),
});

const setupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/setup/status',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Whether the first admin still has to be created (true only to callers on an admin network)',
        response: { 200: setupStatusResponseSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const open = isAdminAddressAllowed(app, request) && (await isSetupOpen(app));
      return { success: true as const, open, addressRestricted: app.config.ADMIN_ALLOWED_CIDRS.length > 0 };
    },
  );

  app.post(
    '/setup/inspect',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Checks a first-run set-up link', body: setupInspectBodySchema, response: { 200: setupInspectResponseSchema } },
    },
    async (request) => {
      const info = await inspectSetupLink(app, request.body.token, callerOf(request).addressAllowed);
      return { success: true as const, expiresAt: info.expiresAt.toISOString(), mfaRequired: info.mfaRequired };
    },
  );

  app.post(
    '/setup/admin',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Creates the first admin account with a set-up link and signs it in (second factor next when required)',
        body: setupAdminBodySchema,
        response: { 200: setupAdminResponseSchema },
      },
    },
    async (request, reply) => {
      const signedIn = await completeSetup(app, request.body, callerOf(request));
      setSessionCookies(app, reply, signedIn, { hint: !signedIn.mfa });
      return { success: true as const, token: signedIn.token, user: signedIn.user, ...(signedIn.mfa ? { mfa: signedIn.mfa } : {}) };
    },
  );
};

export default setupRoutes;
