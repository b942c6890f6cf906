import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { z } from 'zod';
import { AppError, unauthenticated } from '../../../common/errors.ts';
import {
  adminLoginBodySchema,
  auditQuerySchema,
  auditResponseSchema,
  changePasswordBodySchema,
  clientLoginBodySchema,
  FORGOT_PASSWORD_ANSWER,
  forgotPasswordBodySchema,
  invitationInfoResponseSchema,
  invitationLinkResponseSchema,
  invitationStatusResponseSchema,
  invitationUserParamsSchema,
  loginResponseSchema,
  meResponseSchema,
  mfaCodeBodySchema,
  mfaConfirmResponseSchema,
  mfaEnrolmentBodySchema,
  mfaEnrolmentResponseSchema,
  mfaManageBodySchema,
  mfaStatusResponseSchema,
  MFA_TURNED_OFF,
  recoveryCodesResponseSchema,
  setPasswordBodySchema,
  setPasswordResponseSchema,
  successResponseSchema,
  tokenBodySchema,
  resetLinkInfoResponseSchema,
} from '../../../common/schemas/auth.ts';
import { clientAddressOf, isAdminAddressAllowed } from './admin-network.ts';
import { clearSessionCookies, setSessionCookies } from './auth-cookies.ts';
import {
  beginMfaEnrolment,
  beginMfaReplacement,
  type CallerContext,
  changePassword,
  countRefusedSignIn,
  finishMfaEnrolment,
  LoginRateLimitedError,
  renewRecoveryCodes,
  requestPasswordReset,
  inspectResetLink,
  resetPassword,
  signInAdmin,
  signInClient,
  type SignedIn,
  turnOffMfa,
  verifySecondFactor,
} from './auth.service.ts';
import { acceptInvitation, createClientInvitation, inspectInvitation, invitationStatus, revokeClientInvitation } from './invitations.service.ts';
import { listLoginAttempts } from './login-attempts.service.ts';
import { mfaStatus, sealMfaSecretsAtStart } from './mfa.service.ts';
import { revokeSession } from './sessions.service.ts';
import { setTrustedDeviceCookie, TRUSTED_DEVICE_COOKIES } from './trusted-device.ts';
import { runInBackground, settleBackgroundWork } from './background.ts';

const SIGNUP_CLOSED =
  'Accounts are not created here. Our staff open an account for each client and e-mail an invitation; please contact us.';

function callerOf(request: FastifyRequest): CallerContext {
  const app = request.server;
  return {
    ip: clientAddressOf(app.config, request),
    userAgent: request.headers['user-agent'],
    adminAddressAllowed: isAdminAddressAllowed(app, request),
    trustedDevices: { client: request.cookies[TRUSTED_DEVICE_COOKIES.client], admin: request.cookies[TRUSTED_DEVICE_COOKIES.admin] },
  };
}

/** Runs a sign-in step; a 429 also says in Retry-After when to come back. */
async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof LoginRateLimitedError) reply.header('Retry-After', String(err.retryAfterSeconds));
    throw err;
  }
}

/** The text field of a body that may not have passed its schema yet. */
const typedText = (body: unknown, key: string) => {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : '';
};

/** Counts a sign-in refused for unstorable text like a failed one (decision 111); a 429 carries Retry-After. */
const countsAsFailedSignIn =
  (portal: 'client' | 'admin', accountField: 'username' | 'email') =>
  (request: FastifyRequest, reply: FastifyReply): Promise<void> =>
    withRetryAfter(reply, () => countRefusedSignIn(request.server, { portal, account: typedText(request.body, accountField), provisional: 'wrong-password' }, callerOf(request)));

function sessionCaller(request: FastifyRequest) {
  if (!request.user || !request.sessionId) throw unauthenticated();
  return { sessionId: request.sessionId, user: request.user };
}

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onClose', async () => settleBackgroundWork(app));
  // TOTP secrets at rest (decisions 080 and 082): sealed, and reported on, once the app is ready.
  app.addHook('onReady', async () => sealMfaSecretsAtStart(app));

  function signedInAnswer(reply: FastifyReply, signedIn: SignedIn) {
    setSessionCookies(app, reply, signedIn, { hint: !signedIn.mfa });
    if (signedIn.trustedDevice) setTrustedDeviceCookie(app, reply, signedIn.trustedDevice);
    return { success: true as const, token: signedIn.token, user: signedIn.user, ...(signedIn.mfa ? { mfa: signedIn.mfa } : {}) };
  }

  app.post(
    '/auth/login',
    {
      config: { access: 'public', onUnstorableText: countsAsFailedSignIn('client', 'username') },
      schema: { tags: ['auth'], summary: 'Client sign-in with username and password', body: clientLoginBodySchema, response: { 200: loginResponseSchema } },
    },
    async (request, reply) => signedInAnswer(reply, await withRetryAfter(reply, () => signInClient(app, request.body, callerOf(request)))),
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
    async (request, reply) => signedInAnswer(reply, await withRetryAfter(reply, () => signInAdmin(app, request.body, callerOf(request)))),
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
      return { success: true as const, user: { _id: user._id, name: user.name, role: user.role } };
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

  // Second factor (admins).
  app.post(
    '/auth/mfa/verify',
    {
      config: {
        access: 'admin',
        allowMfaPending: true,
        onUnstorableText: async (request, reply) => {
          const { user } = sessionCaller(request);
          await withRetryAfter(reply, () =>
            countRefusedSignIn(app, { portal: 'admin', account: user.email, userId: user._id, provisional: 'wrong-second-factor' }, callerOf(request)),
          );
        },
      },
      schema: { tags: ['auth'], summary: 'Second sign-in step: authenticator code or recovery code', body: mfaCodeBodySchema, response: { 200: loginResponseSchema.extend({ usedRecoveryCode: z.boolean() }) } },
    },
    async (request, reply) => {
      const result = await withRetryAfter(reply, () => verifySecondFactor(app, sessionCaller(request), request.body.code, callerOf(request)));
      return { ...signedInAnswer(reply, result), usedRecoveryCode: result.usedRecoveryCode };
    },
  );

  app.post(
    '/auth/mfa/enrolment',
    {
      config: { access: 'admin', allowMfaPending: true },
      schema: {
        tags: ['auth'],
        summary: 'Starts authenticator enrolment: a new secret and its QR code (from a full session, by choice: the password again)',
        body: mfaEnrolmentBodySchema,
        response: { 200: mfaEnrolmentResponseSchema },
      },
    },
    async (request, reply) => {
      const setup = await withRetryAfter(reply, () => beginMfaEnrolment(app, sessionCaller(request), request.body?.password, callerOf(request)));
      return { success: true as const, ...setup };
    },
  );

  app.post(
    '/auth/mfa/enrolment/confirm',
    {
      config: { access: 'admin', allowMfaPending: true },
      schema: { tags: ['auth'], summary: 'Confirms enrolment with a first code; answers the recovery codes (shown once)', body: mfaCodeBodySchema, response: { 200: mfaConfirmResponseSchema } },
    },
    async (request, reply) => {
      const result = await withRetryAfter(reply, () => finishMfaEnrolment(app, sessionCaller(request), request.body.code, callerOf(request)));
      return { ...signedInAnswer(reply, result), recoveryCodes: result.recoveryCodes };
    },
  );

  app.get(
    '/auth/mfa',
    {
      config: { access: 'admin' },
      schema: { tags: ['auth'], summary: 'Second-factor status of the signed-in admin', response: { 200: mfaStatusResponseSchema } },
    },
    async (request) => ({ success: true as const, ...(await mfaStatus(app, request.user!._id)) }),
  );

  // Managing an active factor: the password again and a code, counted like sign-ins (decision 081).
  app.post(
    '/auth/mfa/recovery-codes',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['auth'],
        summary: 'New recovery codes (the old ones stop working); needs the password and a current authenticator code',
        body: mfaManageBodySchema,
        response: { 200: recoveryCodesResponseSchema },
      },
    },
    async (request, reply) => ({
      success: true as const,
      recoveryCodes: await withRetryAfter(reply, () => renewRecoveryCodes(app, sessionCaller(request), request.body, callerOf(request))),
    }),
  );

  app.post(
    '/auth/mfa/replacement',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['auth'],
        summary: 'A new phone: a new secret and its QR code (password and a code or recovery code first); the old one works until /auth/mfa/enrolment/confirm',
        body: mfaManageBodySchema,
        response: { 200: mfaEnrolmentResponseSchema },
      },
    },
    async (request, reply) => {
      const setup = await withRetryAfter(reply, () => beginMfaReplacement(app, sessionCaller(request), request.body, callerOf(request)));
      return { success: true as const, ...setup };
    },
  );

  app.post(
    '/auth/mfa/disable',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['auth'],
        summary: 'Turns the second factor off (refused while ADMIN_MFA_REQUIRED is on); needs the password and a code',
        body: mfaManageBodySchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request, reply) => {
      await withRetryAfter(reply, () => turnOffMfa(app, sessionCaller(request), request.body, callerOf(request)));
      return { success: true as const, message: MFA_TURNED_OFF };
    },
  );

  // Passwords.
  app.post(
    '/auth/password/forgot',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: "'Forgot password?': mails a reset link when an account matches; the answer never says whether one does", body: forgotPasswordBodySchema, response: { 200: successResponseSchema } },
    },
    async (request) => {
      // The work happens after the answer, so its duration cannot tell whether the account exists.
      runInBackground(app, 'password reset request', () => requestPasswordReset(app, request.body.identifier));
      return { success: true as const, message: FORGOT_PASSWORD_ANSWER };
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
      await changePassword(app, { sessionId: request.sessionId!, userId: request.user!._id }, request.body);
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
    async (request) => ({ success: true as const, ...(await acceptInvitation(app, request.body)) }),
  );

  // Invitations: the staff's side.
  app.get(
    '/auth/invitations/:userId',
    {
      config: { access: 'admin' },
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
      config: { access: 'admin' },
      schema: { tags: ['auth'], summary: 'Resends the invitation: a new 7-day link (mailed and returned); the old link stops working', params: invitationUserParamsSchema, response: { 200: invitationLinkResponseSchema } },
    },
    async (request) => {
      const { url, expiresAt } = await createClientInvitation(app, { userId: request.params.userId });
      return { success: true as const, url, expiresAt: expiresAt.toISOString() };
    },
  );

  app.delete(
    '/auth/invitations/:userId',
    {
      config: { access: 'admin' },
      schema: { tags: ['auth'], summary: "Revokes a client's pending invitation link", params: invitationUserParamsSchema, response: { 200: z.object({ success: z.literal(true), revoked: z.boolean() }) } },
    },
    async (request) => ({ success: true as const, ...(await revokeClientInvitation(app, { userId: request.params.userId })) }),
  );

  app.get(
    '/auth/audit',
    {
      config: { access: 'admin' },
      schema: { tags: ['auth'], summary: 'The login audit, newest first', querystring: auditQuerySchema, response: { 200: auditResponseSchema } },
    },
    async (request) => ({ success: true as const, ...(await listLoginAttempts(app, request.query)) }),
  );
};

export default authRoutes;
