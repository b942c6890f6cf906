import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../common/errors.ts';
import { rateLimitCounters } from '../db/schema/form-guard.ts';

export interface RateLimitRule {
  /** What is counted, such as 'contact'; the caller adds who (the address). */
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterMs: number;
  /** The window the hit was counted in (to give part of it back later, see giveBackRateLimit). */
  windowStart: Date;
}

/** The counter row of a rule's current fixed window for `who`: its key, start and end (ms). */
export function rateLimitWindow(rule: RateLimitRule, who: string, nowMs: number): { key: string; windowStart: number; windowEnd: number } {
  const windowStart = Math.floor(nowMs / rule.windowMs) * rule.windowMs;
  return { key: `${rule.bucket}:${who}`, windowStart, windowEnd: windowStart + rule.windowMs };
}

/** The error of a refused hit: 429 with Retry-After and a message a person understands. */
export function rateLimited(reply: FastifyReply, retryAfterMs: number, message: (wait: string) => string): AppError {
  reply.header('Retry-After', String(Math.ceil(retryAfterMs / 1000)));
  return new AppError('RATE_LIMITED', message(waitWords(retryAfterMs)));
}

/**
 * Counts one hit (or `amount`, e.g. kilobytes) for `who` in the rule's current fixed window (in
 * PostgreSQL, so every process shares the count) and says whether it is still within the limit.
 * Time comes from app.clock. Ended windows are deleted by the hourly retention job
 * (server/lib/retention.ts), not here.
 */
export async function hitRateLimit(app: FastifyInstance, rule: RateLimitRule, who: string, amount = 1): Promise<RateLimitResult> {
  const now = app.clock.now().getTime();
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const windowEnd = windowStart + rule.windowMs;
  const [row] = await app.db
    .insert(rateLimitCounters)
    .values({ key: `${rule.bucket}:${who}`, windowStart: new Date(windowStart), count: amount, expiresAt: new Date(windowEnd) })
    .onConflictDoUpdate({
      target: [rateLimitCounters.key, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + ${amount}` },
    })
    .returning({ count: rateLimitCounters.count });
  return { allowed: row.count <= rule.limit, count: row.count, retryAfterMs: windowEnd - now, windowStart: new Date(windowStart) };
}

/**
 * Takes back part of an earlier hit, in the window it was counted in: a reservation that was
 * refused or turned out smaller (an upload's declared size against the bytes actually stored).
 */
export async function giveBackRateLimit(app: FastifyInstance, rule: RateLimitRule, who: string, windowStart: Date, amount: number): Promise<void> {
  if (amount <= 0) return;
  await app.db
    .update(rateLimitCounters)
    .set({ count: sql`greatest(${rateLimitCounters.count} - ${amount}, 0)` })
    .where(and(eq(rateLimitCounters.key, `${rule.bucket}:${who}`), eq(rateLimitCounters.windowStart, windowStart)));
}

/** Words for a wait, rounded up: 'a minute', '12 minutes', '2 hours'. */
export function waitWords(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes === 1) return 'a minute';
  if (minutes < 90) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/**
 * Counts the hit and refuses it past the limit with 429, a Retry-After header and a message a
 * person understands.
 */
export async function enforceRateLimit(
  app: FastifyInstance,
  reply: FastifyReply,
  rule: RateLimitRule,
  who: string,
  message: (wait: string) => string,
): Promise<void> {
  const result = await hitRateLimit(app, rule, who);
  if (result.allowed) return;
  throw rateLimited(reply, result.retryAfterMs, message);
}
