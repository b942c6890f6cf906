import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginResponseSchema,
  mfaCodeBodySchema,
  mfaConfirmResponseSchema,
  mfaEnrolmentBodySchema,
  mfaEnrolmentResponseSchema,
  mfaManageBodySchema,
  mfaStatusResponseSchema,
  MFA_TURNED_OFF,
  recoveryCodesResponseSchema,
  successResponseSchema,
} from '../../../common/schemas/auth.ts';
import { callerOf, sessionCaller, signedInAnswer, withRetryAfter } from './auth-http.ts';
import { beginMfaEnrolment, beginMfaReplacement, finishMfaEnrolment, renewRecoveryCodes, turnOffMfa, verifySecondFactor } from './auth-mfa.service.ts';
import { countRefusedSignIn } from './auth.service.ts';
import { mfaStatus } from './mfa.service.ts';

type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/** The admins' second-factor routes, registered by the accounts plugin (auth.routes.ts). */
export function registerMfaRoutes(app: RouteApp): void {
  // Second factor (admins).
  app.post(
    '/auth/mfa/verify',
    {
      config: {
        access: 'staff',
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
      return { ...signedInAnswer(app, reply, result), usedRecoveryCode: result.usedRecoveryCode };
    },
  );

  app.post(
    '/auth/mfa/enrolment',
    {
      config: { access: 'staff', allowMfaPending: true },
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
      config: { access: 'staff', allowMfaPending: true },
      schema: { tags: ['auth'], summary: 'Confirms enrolment with a first code; answers the recovery codes (shown once)', body: mfaCodeBodySchema, response: { 200: mfaConfirmResponseSchema } },
    },
    async (request, reply) => {
      const result = await withRetryAfter(reply, () => finishMfaEnrolment(app, sessionCaller(request), request.body.code, callerOf(request)));
      return { ...signedInAnswer(app, reply, result), recoveryCodes: result.recoveryCodes };
    },
  );

  app.get(
    '/auth/mfa',
    {
      config: { access: 'staff' },
      schema: { tags: ['auth'], summary: 'Second-factor status of the signed-in admin', response: { 200: mfaStatusResponseSchema } },
    },
    async (request) => ({ success: true as const, ...(await mfaStatus(app, request.user!._id)) }),
  );

  // Managing an active factor: the password again and a code, counted like sign-ins (decision 081).
  app.post(
    '/auth/mfa/recovery-codes',
    {
      config: { access: 'staff' },
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
      config: { access: 'staff' },
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
      config: { access: 'staff' },
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
}
