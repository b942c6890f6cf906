import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from '../../common/errors.ts';
import { FORM_MESSAGES, FORM_MIN_FILL_MS, FORM_TOKEN_MAX_AGE_MS, type GuardedForm } from '../../common/form-guard.ts';
import { enforceRateLimit, type RateLimitRule } from './rate-limit.ts';
import { serverSecret } from './server-secrets.ts';
import { visitorLimitKeyOf } from '../modules/auth/admin-network.ts';

// Keeping bots out of the public forms (DESIGN.md section 6): a honeypot, a minimum fill time
// proven by a token the server signed when the form was shown, and per-address rate limits.

const SECRET_NAME = 'form-token';

/** Submissions per address: generous for people, useless for bulk senders. */
export const FORM_RATE_LIMITS: Record<GuardedForm, RateLimitRule> = {
  vendor: { bucket: 'form:vendor', limit: 5, windowMs: 60 * 60_000 },
  contact: { bucket: 'form:contact', limit: 5, windowMs: 60 * 60_000 },
  newsletter: { bucket: 'form:newsletter', limit: 10, windowMs: 60 * 60_000 },
};

async function sign(app: FastifyInstance, payload: string): Promise<string> {
  return createHmac('sha256', await serverSecret(app, SECRET_NAME))
    .update(payload)
    .digest('base64url');
}

/** A token saying "this form was shown at <now>", signed so nobody can backdate it. */
export async function issueFormToken(app: FastifyInstance): Promise<string> {
  const issuedAt = String(app.clock.now().getTime());
  return `${issuedAt}.${await sign(app, issuedAt)}`;
}

/** When the token was issued, or null when it is not one of ours. */
async function tokenIssuedAt(app: FastifyInstance, token: string): Promise<number | null> {
  const match = /^(\d{10,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const expected = Buffer.from(await sign(app, match[1]));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return Number(match[1]);
}

export type GuardVerdict = 'accept' | 'drop';

/**
 * Checks the guard fields of a submission. 'drop' means a bot filled the honeypot: the caller
 * answers as if all went well and stores and sends nothing. A missing, forged, stale or too-young
 * token is refused with a message (people never meet it: the form waits out the minimum itself).
 */
export async function checkFormGuard(
  app: FastifyInstance,
  form: GuardedForm,
  fields: { formToken?: string; homepageUrl?: string },
): Promise<GuardVerdict> {
  if (fields.homepageUrl && fields.homepageUrl.trim() !== '') return 'drop';
  const issuedAt = await tokenIssuedAt(app, fields.formToken ?? '');
  const age = issuedAt === null ? -1 : app.clock.now().getTime() - issuedAt;
  if (issuedAt === null || age > FORM_TOKEN_MAX_AGE_MS || age < -60_000) throw badRequest(FORM_MESSAGES.expired);
  if (age < FORM_MIN_FILL_MS[form]) throw badRequest(FORM_MESSAGES.tooFast);
  return 'accept';
}

/** Counts a submission against the sender's address; past the limit, refuses it with 429. */
export async function enforceFormRateLimit(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  form: GuardedForm,
) {
  await enforceRateLimit(app, reply, FORM_RATE_LIMITS[form], visitorLimitKeyOf(request), FORM_MESSAGES.rateLimited);
}
