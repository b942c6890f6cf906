import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { LoginPortal } from '../../db/schema/auth.ts';
import { serverSecret } from '../../lib/server-secrets.ts';
import { accountKey } from './login-attempts.service.ts';

// Decision 192: a browser that has fully signed in to an account (or set its password through a
// reset link from the account's mailbox) gets a signed "trusted device" cookie for it. The per-account
// limit then counts that browser's failures on their own instead of the account's, so someone
// guessing from elsewhere cannot keep the owner out: the owner's own browser still reaches the
// password check. An attacker without the cookie stays under the account limit as before.

/** One cookie per portal (a client and an admin account can share a browser). */
export const TRUSTED_DEVICE_COOKIES: Record<LoginPortal, string> = { client: 'trusted_device_client', admin: 'trusted_device_admin' };
const TRUSTED_DEVICE_MAX_AGE_MS = 180 * 24 * 60 * 60_000;
const SECRET_NAME = 'trusted-device';
// Sent only to the sign-in routes, never to pages or other API calls.
const COOKIE_PATH = '/api/auth';

async function signature(app: FastifyInstance, portal: LoginPortal, account: string, id: string, issuedAt: string): Promise<string> {
  return createHmac('sha256', await serverSecret(app, SECRET_NAME))
    .update(`${portal}\n${accountKey(account)}\n${id}\n${issuedAt}`)
    .digest('base64url');
}

/** The device id of a cookie made for this account and not older than its lifetime; else null. */
export async function trustedDeviceOf(app: FastifyInstance, portal: LoginPortal, account: string, cookie: string | undefined): Promise<string | null> {
  const match = /^([A-Za-z0-9_-]{22})\.(\d{10,15})\.([A-Za-z0-9_-]{43})$/.exec(cookie ?? '');
  if (!match) return null;
  const [, id, issuedAt, given] = match;
  const age = app.clock.now().getTime() - Number(issuedAt);
  if (age < -60_000 || age > TRUSTED_DEVICE_MAX_AGE_MS) return null;
  const expected = Buffer.from(await signature(app, portal, account, id, issuedAt));
  const got = Buffer.from(given);
  return expected.length === got.length && timingSafeEqual(expected, got) ? id : null;
}

/** A fresh cookie value for this account, keeping the browser's device id when it had one. */
export async function trustedDeviceCookie(app: FastifyInstance, portal: LoginPortal, account: string, id?: string | null): Promise<string> {
  const deviceId = id ?? randomBytes(16).toString('base64url');
  const issuedAt = String(app.clock.now().getTime());
  return `${deviceId}.${issuedAt}.${await signature(app, portal, account, deviceId, issuedAt)}`;
}

/** What a sign-in step hands the route so that it sets the cookie. */
export interface TrustedDeviceGrant {
  portal: LoginPortal;
  value: string;
}

export function setTrustedDeviceCookie(app: FastifyInstance, reply: FastifyReply, grant: TrustedDeviceGrant): void {
  reply.setCookie(TRUSTED_DEVICE_COOKIES[grant.portal], grant.value, {
    httpOnly: true,
    secure: app.config.isProduction,
    sameSite: 'strict',
    path: COOKIE_PATH,
    maxAge: TRUSTED_DEVICE_MAX_AGE_MS / 1000,
  });
}
