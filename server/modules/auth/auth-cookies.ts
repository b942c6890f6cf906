import type { FastifyInstance, FastifyReply } from 'fastify';
import { SIGNED_IN_HINT_COOKIE } from '../../../common/session-hint.ts';
import { SESSION_COOKIE } from '../../plugins/access.ts';

/**
 * Sets the session cookie (HttpOnly; Secure in production; SameSite=Lax; Path=/; until the
 * session's absolute expiry) and, for full sessions, the readable hint that only says "signed in"
 * so static pages can show 'My Dashboard'.
 */
export function setSessionCookies(app: FastifyInstance, reply: FastifyReply, session: { token: string; expiresAt: Date }, options: { hint: boolean }) {
  const secure = app.config.isProduction;
  reply.setCookie(SESSION_COOKIE, session.token, { httpOnly: true, secure, sameSite: 'lax', path: '/', expires: session.expiresAt });
  if (options.hint) {
    reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', { httpOnly: false, secure, sameSite: 'lax', path: '/', expires: session.expiresAt });
  } else {
    reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', secure, sameSite: 'lax' });
  }
}

export function clearSessionCookies(app: FastifyInstance, reply: FastifyReply) {
  const secure = app.config.isProduction;
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure, sameSite: 'lax' });
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', secure, sameSite: 'lax' });
}
