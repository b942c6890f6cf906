import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { loginAttempts, type LoginPortal, type LoginResult } from '../../db/schema/auth.ts';
import { addressLimitKey } from '../../lib/rate-limit.ts';

// Per account: 5 failures within 15 minutes, then a wait that doubles with each further failure
// (1, 2, 4, 8 minutes), never more than 15 minutes after the last failure. Failures older than the
// window, or before the last successful sign-in, no longer count, so nobody is locked out for good.
// A trusted device of the account (decision 192) is counted on its own by the same rule, and its
// failures do not count against the account, so guesses from elsewhere cannot keep the owner out.
export const ACCOUNT_FAILURE_LIMIT = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
const FIRST_DELAY_MS = 60_000;
const MAX_DELAY_MS = 15 * 60_000;
// Per address (an IPv6 /64 counts as one address: decision 191): generous, because an office or a
// mobile carrier may put many people behind one address.
export const ADDRESS_FAILURE_LIMIT = 30;

/** Results that count against the account and the address. */
export const FAILED_RESULTS: LoginResult[] = ['wrong-password', 'unknown-account', 'password-not-set', 'wrong-second-factor', 'archived-account', 'deactivated-account'];

export interface AttemptInput {
  ip: string;
  portal: LoginPortal;
  account: string;
  userId?: string | null;
  result: LoginResult;
  userAgent?: string;
  /** The trusted-device id of the browser, when it has a valid one for this account (decision 192). */
  device?: string | null;
}

/** The account key of an attempt: what was typed, trimmed and lower-cased. */
export const accountKey = (typed: string) => typed.trim().toLowerCase().slice(0, 254);

/** Writes one row of the login audit. */
export async function recordLoginAttempt(app: FastifyInstance, input: AttemptInput): Promise<void> {
  await app.db.insert(loginAttempts).values({
    at: app.clock.now(),
    ip: input.ip.slice(0, 64),
    addressKey: addressLimitKey(input.ip),
    device: input.device ?? null,
    portal: input.portal,
    account: accountKey(input.account),
    userId: input.userId ?? null,
    result: input.result,
    userAgent: input.userAgent?.slice(0, 300),
  });
}

type RateLimitVerdict = { limited: false } | { limited: true; retryAfterSeconds: number };

async function verdictOf(
  db: Db,
  now: Date,
  input: { portal: LoginPortal; account: string; ip: string; device?: string | null },
): Promise<RateLimitVerdict> {
  const windowStart = new Date(now.getTime() - FAILURE_WINDOW_MS);
  const account = accountKey(input.account);
  const address = addressLimitKey(input.ip);
  // A trusted device counts its own failures; any other caller the account's failures from elsewhere.
  const whose = input.device ? eq(loginAttempts.device, input.device) : isNull(loginAttempts.device);

  const [lastSuccess] = await db
    .select({ at: loginAttempts.at })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.portal, input.portal), eq(loginAttempts.account, account), eq(loginAttempts.result, 'success'), gt(loginAttempts.at, windowStart)))
    .orderBy(desc(loginAttempts.at))
    .limit(1);
  const since = lastSuccess && lastSuccess.at > windowStart ? lastSuccess.at : windowStart;
  const [accountFailures] = await db
    .select({ n: count(), last: sql<Date | null>`max(${loginAttempts.at})` })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.portal, input.portal),
        eq(loginAttempts.account, account),
        whose,
        inArray(loginAttempts.result, FAILED_RESULTS),
        gt(loginAttempts.at, since),
      ),
    );
  let waitUntil = 0;
  if (accountFailures.n >= ACCOUNT_FAILURE_LIMIT && accountFailures.last) {
    const delay = Math.min(FIRST_DELAY_MS * 2 ** (accountFailures.n - ACCOUNT_FAILURE_LIMIT), MAX_DELAY_MS);
    waitUntil = new Date(accountFailures.last).getTime() + delay;
  }

  const [addressFailures] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.addressKey, address), inArray(loginAttempts.result, FAILED_RESULTS), gt(loginAttempts.at, windowStart)));
  if (addressFailures.n >= ADDRESS_FAILURE_LIMIT) {
    // The address may try again once enough of its failures have left the window.
    const [oldest] = await db
      .select({ at: loginAttempts.at })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.addressKey, address), inArray(loginAttempts.result, FAILED_RESULTS), gt(loginAttempts.at, windowStart)))
      .orderBy(loginAttempts.at)
      .offset(addressFailures.n - ADDRESS_FAILURE_LIMIT)
      .limit(1);
    if (oldest) waitUntil = Math.max(waitUntil, oldest.at.getTime() + FAILURE_WINDOW_MS);
  }

  if (waitUntil > now.getTime()) {
    return { limited: true, retryAfterSeconds: Math.max(1, Math.ceil((waitUntil - now.getTime()) / 1000)) };
  }
  return { limited: false };
}

/** A reserved attempt: its audit row already counts as a failure until settleLoginAttempt says otherwise. */
export interface ReservedAttempt {
  id: string;
}

/**
 * The check and the count in one atomic step (decision 110): under transaction-scoped advisory locks
 * on the account and on the address, the failures are counted and, when the attempt may go ahead,
 * its audit row is written at once with a provisional failed result (`provisional`). Parallel
 * attempts on the same account or from the same address therefore queue for a few milliseconds
 * and each sees the ones before it, so 50 parallel guesses get exactly as many checks as one guess
 * after another would. The slow part (argon2, the TOTP check) runs after the locks are released;
 * the caller then settles the row with the real result (or releases it when nothing is audited).
 * Refused attempts are written as 'rate-limited' in the same step.
 */
export async function reserveLoginAttempt(
  app: FastifyInstance,
  input: Omit<AttemptInput, 'result'> & { provisional: LoginResult },
): Promise<{ limited: false; attempt: ReservedAttempt } | { limited: true; retryAfterSeconds: number }> {
  const account = accountKey(input.account);
  const ip = input.ip.slice(0, 64);
  const address = addressLimitKey(input.ip);
  return app.db.transaction(async (tx) => {
    // Always the account first, then the address: every transaction takes them in the same order.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`login-account:${input.portal}:${account}`}))`);
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`login-address:${address}`}))`);
    const now = app.clock.now();
    const verdict = await verdictOf(tx as unknown as Db, now, { portal: input.portal, account, ip, device: input.device });
    const [row] = await tx
      .insert(loginAttempts)
      .values({
        at: now,
        ip,
        addressKey: address,
        device: input.device ?? null,
        portal: input.portal,
        account,
        userId: input.userId ?? null,
        result: verdict.limited ? 'rate-limited' : input.provisional,
        userAgent: input.userAgent?.slice(0, 300),
      })
      .returning({ id: loginAttempts.id });
    return verdict.limited ? verdict : { limited: false as const, attempt: { id: row.id } };
  });
}

/** Writes the real result (and the account's id, once known) into a reserved attempt. */
export async function settleLoginAttempt(app: FastifyInstance, attempt: ReservedAttempt, result: LoginResult, userId?: string | null): Promise<void> {
  await app.db
    .update(loginAttempts)
    .set(userId === undefined ? { result } : { result, userId })
    .where(eq(loginAttempts.id, attempt.id));
}

/** Removes a reserved attempt that turned out to be no sign-in at all (a password typed again, right). */
export async function releaseLoginAttempt(app: FastifyInstance, attempt: ReservedAttempt): Promise<void> {
  await app.db.delete(loginAttempts).where(eq(loginAttempts.id, attempt.id));
}

/** The message of a 429 answer, in words a person can act on. */
export function rateLimitMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait = retryAfterSeconds < 60 ? `${retryAfterSeconds} seconds` : minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `Too many sign-in attempts. Please wait ${wait} and try again.`;
}

/** One page of the login audit, newest first. */
export async function listLoginAttempts(app: FastifyInstance, query: { page: number; pageSize: number; result?: LoginResult }) {
  const where = query.result ? eq(loginAttempts.result, query.result) : undefined;
  const [rows, [{ total }]] = await Promise.all([
    app.db
      .select()
      .from(loginAttempts)
      .where(where)
      .orderBy(desc(loginAttempts.at), desc(loginAttempts.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    app.db.select({ total: count() }).from(loginAttempts).where(where),
  ]);
  return {
    attempts: rows.map((r) => ({
      _id: r.id,
      at: r.at.toISOString(),
      ip: r.ip,
      portal: r.portal,
      account: r.account,
      userId: r.userId,
      result: r.result,
    })),
    pagination: { page: query.page, pageSize: query.pageSize, total, hasMore: query.page * query.pageSize < total },
  };
}
