import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthenticated } from '../../../common/errors.ts';
import { clientAddressOf, isAdminAddressAllowed } from './admin-network.ts';
import { setSessionCookies } from './auth-cookies.ts';
import { countRefusedSignIn, LoginRateLimitedError, type CallerContext, type SignedIn } from './auth.service.ts';
import { setTrustedDeviceCookie, TRUSTED_DEVICE_COOKIES } from './trusted-device.ts';

// What the accounts routes (auth.routes.ts, auth-mfa.routes.ts) share: who is calling, the sign-in
// answer, and the Retry-After of a refused sign-in step.

export function callerOf(request: FastifyRequest): CallerContext {
  const app = request.server;
  return {
    ip: clientAddressOf(app.config, request),
    userAgent: request.headers['user-agent'],
    adminAddressAllowed: isAdminAddressAllowed(app, request),
    trustedDevices: { client: request.cookies[TRUSTED_DEVICE_COOKIES.client], admin: request.cookies[TRUSTED_DEVICE_COOKIES.admin] },
  };
}

/** Runs a sign-in step; a 429 also says in Retry-After when to come back. */
export async function withRetryAfter<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
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
export const countsAsFailedSignIn =
  (portal: 'client' | 'admin', accountField: 'username' | 'email') =>
  (request: FastifyRequest, reply: FastifyReply): Promise<void> =>
    withRetryAfter(reply, () => countRefusedSignIn(request.server, { portal, account: typedText(request.body, accountField), provisional: 'wrong-password' }, callerOf(request)));

export function sessionCaller(request: FastifyRequest) {
  if (!request.user || !request.sessionId) throw unauthenticated();
  return { sessionId: request.sessionId, user: request.user };
}

/** The answer of a completed sign-in step: session cookies set, trusted browser remembered. */
export function signedInAnswer(app: FastifyInstance, reply: FastifyReply, signedIn: SignedIn) {
  setSessionCookies(app, reply, signedIn, { hint: !signedIn.mfa });
  if (signedIn.trustedDevice) setTrustedDeviceCookie(app, reply, signedIn.trustedDevice);
  return { success: true as const, token: signedIn.token, user: signedIn.user, ...(signedIn.mfa ? { mfa: signedIn.mfa } : {}) };
}
