import { auditOf } from '../audit/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { z } from 'zod';
import { AppError } from '../../../common/errors.ts';
import {
  adminLoginBodySchema,
  auditQuerySchema,
  auditResponseSchema,
  changePasswordBodySchema,
  clientLoginBodySchema,
  FORGOT_PASSWORD_ANSWER,
  FORGOT_PASSWORD_NO_MAIL,
  forgotPasswordBodySchema,
  invitationInfoResponseSchema,
  invitationLinkResponseSchema,
  invitationStatusResponseSchema,
  invitationUserParamsSchema,
  loginResponseSchema,
  meResponseSchema,
  setPasswordBodySchema,
  setPasswordResponseSchema,
  successResponseSchema,
  tokenBodySchema,
  resetLinkInfoResponseSchema,
} from '../../../common/schemas/auth.ts';
import { clearSessionCookies } from './auth-cookies.ts';
import { signInAdmin, signInClient } from './auth.service.ts';
import { changePassword, inspectResetLink, requestPasswordReset, resetPassword } from './password-changes.service.ts';
import { acceptInvitation, createClientInvitation, inspectInvitation, invitationStatus, revokeClientInvitation } from './invitations.service.ts';
import { permissionsOf } from '../../../common/permissions.ts';
import { listLoginAttempts } from './login-attempts.service.ts';
import { sealMfaSecretsAtStart } from './mfa.service.ts';
import { revokeSession } from './sessions.service.ts';
import { setTrustedDeviceCookie } from './trusted-device.ts';
import { callerOf, countsAsFailedSignIn, signedInAnswer, withRetryAfter } from './auth-http.ts';
import { registerMfaRoutes } from './auth-mfa.routes.ts';
import { mailConfigured } from '../../mail/mailer.ts';
import { okResponse } from '../../../common/schemas/ok-response.ts';

const SIGNUP_CLOSED =
  'Accounts are not created here. Our staff open an account for each client and e-mail an invitation; please contact us.';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const later = afterAnswer(app);
  // TOTP secrets at rest (decisions 080 and 082): sealed, and reported on, once the app is ready.
  app.addHook('onReady', async () => sealMfaSecretsAtStart(app));

  app.post(
    '/auth/login',
    {
      config: { access: 'public', onUnstorableText: countsAsFailedSignIn('client', 'username') },
      schema: { tags: ['auth'], summary: 'Client sign-in with username and password', body: clientLoginBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => signedInAnswer(app, reply, await withRetryAfter(reply, () => signInClient(app, request.body, callerOf(request)))),
  );

  app.post(
    '/auth/adminlogin',
    {
      config: { access: 'public', onUnstorableText: countsAsFailedSignIn('admin', 'email') },
      schema: {
        tags: ['auth'],
        summary: 'Admin sign-in with e-mail and password (allowed networks only); may ask for the second factor next',
        body: adminLoginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => signedInAnswer(app, reply, await withRetryAfter(reply, () => signInAdmin(app, request.body, callerOf(request)))),
  );

  // The specification lists POST /auth/signup without a payload. Accounts are opened by staff
  // (invitations), so public sign-up is refused on purpose: docs/decisions/041-no-public-signup.md.
  app.post(
    '/auth/signup',
    { config: { access: 'public' }, schema: { tags: ['auth'], summary: 'Always refused: accounts are opened by staff', response: {} } },
    async () => {
      throw new AppError('FORBIDDEN', SIGNUP_CLOSED);
    },
  );

  app.get(
    '/auth/me',
    {
      config: { access: 'authenticated' },
      serializerCompiler: fastSerializerCompiler,
      schema: { tags: ['auth'], summary: 'The signed-in user', response: { 200: meResponseSchema } },
    },
    async (request) => {
      const user = request.user!;
      const staffRole = user.role === 'admin' ? user.staffRole : null;
      return {
        success: true as const,
        user: { _id: user._id, name: user.name, role: user.role, staffRole, permissions: permissionsOf(staffRole), organisationId: user.organisationId, memberRole: user.memberRole },
      };
    },
  );

  // Public, so that it always works: it ends whatever session the request carries, even half-signed-in.
  app.post(
    '/auth/logout',
    { config: { access: 'public' }, schema: { tags: ['auth'], summary: 'Ends the session on the server and clears the cookie', response: { 200: successResponseSchema } } },
    async (request, reply) => {
      if (request.sessionId) await revokeSession(app, request.sessionId);
      clearSessionCookies(app, reply);
      // Whatever the browser kept of the signed-in pages and files goes with the session (decision 114).
      reply.header('Clear-Site-Data', '"cache"');
      return { success: true as const };
    },
  );

  registerMfaRoutes(app);

  // Passwords.
  app.post(
    '/auth/password/forgot',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: "'Forgot password?': mails a reset link when an account matches; the answer never says whether one does", body: forgotPasswordBodySchema, response: { 200: successResponseSchema } },
    },
    async (request) => {
      // The work happens after the answer, so its duration cannot tell whether the account exists.
      later(() => requestPasswordReset(app, request.body.identifier), 'password reset request failed');
      return { success: true as const, message: mailConfigured(app) ? FORGOT_PASSWORD_ANSWER : FORGOT_PASSWORD_NO_MAIL };
    },
  );

  app.post(
    '/auth/password/reset',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Sets a new password with a reset link; ends every session of the account', body: setPasswordBodySchema, response: { 200: setPasswordResponseSchema } },
    },
    async (request, reply) => {
      const { trustedDevice, ...done } = await resetPassword(app, request.body, callerOf(request));
      setTrustedDeviceCookie(app, reply, trustedDevice);
      return { success: true as const, ...done };
    },
  );

  app.post(
    '/auth/password/reset/inspect',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Whether a reset link is still usable (so the page says so when it opens)', body: tokenBodySchema, response: { 200: resetLinkInfoResponseSchema } },
    },
    async (request) => ({ success: true as const, expiresAt: (await inspectResetLink(app, request.body.token)).expiresAt.toISOString() }),
  );

  app.post(
    '/auth/password/change',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['auth'], summary: 'The signed-in user changes their password; their other sessions end', body: changePasswordBodySchema, response: { 200: successResponseSchema } },
    },
    async (request) => {
      await changePassword(app, { sessionId: request.sessionId!, userId: request.user!._id }, request.body, auditOf(request));
      return { success: true as const, message: 'Your password has been changed. Other devices have been signed out.' };
    },
  );

  // Invitations: the client's side.
  app.post(
    '/auth/invitation/inspect',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Who an invitation link is for (name, username), while it is valid', body: tokenBodySchema, response: { 200: invitationInfoResponseSchema } },
    },
    async (request) => {
      const info = await inspectInvitation(app, request.body.token);
      return { success: true as const, name: info.name, username: info.username, expiresAt: info.expiresAt.toISOString() };
    },
  );

  app.post(
    '/auth/invitation/accept',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Sets the first password with an invitation link (single use)', body: setPasswordBodySchema, response: { 200: setPasswordResponseSchema } },
    },
    async (request) => ({ success: true as const, ...(await acceptInvitation(app, request.body, callerOf(request))) }),
  );

  // Invitations: the staff's side.
  app.get(
    '/auth/invitations/:userId',
    {
      config: { access: { staff: 'clients.read' } },
      schema: { tags: ['auth'], summary: "Where a client's invitation stands", params: invitationUserParamsSchema, response: { 200: invitationStatusResponseSchema } },
    },
    async (request) => {
      const s = await invitationStatus(app, { userId: request.params.userId });
      return { success: true as const, status: s.status, expiresAt: s.expiresAt?.toISOString() ?? null };
    },
  );

  app.post(
    '/auth/invitations/:userId',
    {
      config: { access: { staff: 'clients.write' } },
      schema: { tags: ['auth'], summary: 'Resends the invitation: a new 7-day link (mailed and returned); the old link stops working', params: invitationUserParamsSchema, response: { 200: invitationLinkResponseSchema } },
    },
    async (request) => {
      const { url, expiresAt, mail } = await createClientInvitation(app, { userId: request.params.userId });
      return { success: true as const, url, expiresAt: expiresAt.toISOString(), mail };
    },
  );

  app.delete(
    '/auth/invitations/:userId',
    {
      config: { access: { staff: 'clients.write' } },
      schema: { tags: ['auth'], summary: "Revokes a client's pending invitation link", params: invitationUserParamsSchema, response: { 200: okResponse({ revoked: z.boolean() }) } },
    },
    async (request) => ({ success: true as const, ...(await revokeClientInvitation(app, { userId: request.params.userId })) }),
  );

  app.get(
    '/auth/audit',
    {
      config: { access: { staff: 'audit.read' } },
      schema: { tags: ['auth'], summary: 'The login audit, newest first', querystring: auditQuerySchema, response: { 200: auditResponseSchema } },
    },
    async (request) => ({ success: true as const, ...(await listLoginAttempts(app, request.query)) }),
  );
};

export default authRoutes;
