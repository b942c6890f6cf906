import { isIP } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../common/errors.ts';
import { rateLimitCounters } from '../db/schema/form-guard.ts';
import type { DbExecutor } from '../mail/mailer.ts';

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

/** How many leading bits of an IPv6 address one visitor is counted by (decision 191). */
const IPV6_LIMIT_PREFIX_BITS = 64;

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail becomes the last two). */
function ipv6Groups(address: string): number[] {
  let a = address;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(a);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number);
    a = `${a.slice(0, v4.index)}${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const [head, tail] = a.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a visitor's address is counted under by every per-address limit (decision 191): an IPv4
 * address as it is; an IPv6 address by its /64, the block one subscriber line or one phone gets, so
 * the 2^64 addresses of one visitor count as one; an IPv4-mapped IPv6 address (::ffff:a.b.c.d, in
 * any spelling) as its IPv4 address. Anything that is not an address is counted as it is written.
 */
export function addressLimitKey(address: string): string {
  let a = address.trim();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const family = isIP(a);
  if (family === 4) return a;
  if (family !== 6) return a.slice(0, 64);
  const g = ipv6Groups(a.toLowerCase());
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255].join('.');
  return `${g.slice(0, IPV6_LIMIT_PREFIX_BITS / 16).map((x) => x.toString(16)).join(':')}::/${IPV6_LIMIT_PREFIX_BITS}`;
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
export async function hitRateLimit(
  app: FastifyInstance,
  rule: RateLimitRule,
  who: string,
  amount = 1,
  /** A transaction the count belongs to (a caller inside one must not wait for a second connection). */
  db: DbExecutor = app.db,
): Promise<RateLimitResult> {
  const now = app.clock.now().getTime();
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const windowEnd = windowStart + rule.windowMs;
  const [row] = await db
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
