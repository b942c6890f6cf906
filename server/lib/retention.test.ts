import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authTokens, loginAttempts, mfaUsedSteps } from '../db/schema/auth.ts';
import { rateLimitCounters } from '../db/schema/form-guard.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { newsletterSubscribers } from '../db/schema/newsletter.ts';
import { sessions } from '../db/schema/users.ts';
import { createTestApp, createUser, type TestApp } from '../../tests/helpers/test-app.ts';
import { pruneOldRecords, RETENTION } from './retention.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const DAY = 24 * 60 * 60_000;
const token = () => randomBytes(16).toString('hex');

describe('pruneOldRecords', () => {
  it('removes what its retention period no longer keeps, and nothing else', async () => {
    const db = t.database.db;
    const user = await createUser(t, { role: 'admin' });
    const now = () => t.clock.now();
    const at = (msAgo: number) => new Date(now().getTime() - msAgo);
    const ids = async (table: 'attempts' | 'mail' | 'sessions' | 'tokens' | 'subs') => {
      const rows =
        table === 'attempts'
          ? await db.select({ id: loginAttempts.account }).from(loginAttempts)
          : table === 'mail'
            ? await db.select({ id: mailOutbox.subject }).from(mailOutbox)
            : table === 'sessions'
              ? await db.select({ id: sessions.userAgent }).from(sessions)
              : table === 'tokens'
                ? await db.select({ id: authTokens.tokenHash }).from(authTokens)
                : await db.select({ id: newsletterSubscribers.email }).from(newsletterSubscribers);
      return rows.map((r) => r.id).sort();
    };

    const attempt = (account: string, msAgo: number) =>
      db.insert(loginAttempts).values({ at: at(msAgo), ip: '203.0.113.1', portal: 'admin', account, result: 'wrong-password' });
    await attempt('old-attempt', RETENTION.loginAttemptsMs + DAY);
    await attempt('recent-attempt', RETENTION.loginAttemptsMs - DAY);

    const mail = (subject: string, status: 'pending' | 'sent' | 'stored' | 'failed', msAgo: number) =>
      db.insert(mailOutbox).values({ to: 'x@example.test', subject, text: 't', kind: 'test', status, createdAt: at(msAgo) });
    await mail('old-sent', 'sent', RETENTION.mailOutboxMs + DAY);
    await mail('old-stored', 'stored', RETENTION.mailOutboxMs + DAY);
    await mail('old-failed', 'failed', RETENTION.mailOutboxMs + DAY);
    await mail('old-pending', 'pending', RETENTION.mailOutboxMs + DAY);
    await mail('recent-sent', 'sent', RETENTION.mailOutboxMs - DAY);

    const session = (label: string, expiresAgo: number, revokedAgo?: number) =>
      db.insert(sessions).values({
        userId: user.id,
        tokenHash: token(),
        userAgent: label,
        createdAt: at(40 * DAY),
        lastSeenAt: at(40 * DAY),
        expiresAt: at(expiresAgo),
        revokedAt: revokedAgo === undefined ? null : at(revokedAgo),
      });
    await session('long-expired', 2 * DAY);
    await session('just-expired', 60_000);
    await session('live', -DAY);
    await session('revoked-long-ago', -DAY, 2 * DAY);
    await session('just-revoked', -DAY, 60_000);

    const link = (label: string, expiresAgo: number) =>
      db.insert(authTokens).values({ userId: user.id, purpose: 'password-reset', tokenHash: label, createdAt: at(expiresAgo + DAY), expiresAt: at(expiresAgo) });
    await link('link-long-expired', RETENTION.expiredLinksMs + DAY);
    await link('link-lately-expired', DAY);

    await db.insert(mfaUsedSteps).values([
      { userId: user.id, step: 1, usedAt: at(2 * 60 * 60_000) },
      { userId: user.id, step: 2, usedAt: at(60_000) },
    ]);
    await db.insert(rateLimitCounters).values([
      { key: 'test:old', windowStart: at(2 * 60_000), count: 3, expiresAt: at(60_000) },
      { key: 'test:current', windowStart: at(30_000), count: 3, expiresAt: at(-30_000) },
    ]);

    const subscriber = (email: string, status: 'pending' | 'subscribed', createdAgo: number, linkExpiresAgo: number | null) =>
      db.insert(newsletterSubscribers).values({
        email,
        status,
        unsubscribeToken: token(),
        createdAt: at(createdAgo),
        confirmTokenExpiresAt: linkExpiresAgo === null ? null : at(linkExpiresAgo),
      });
    await subscriber('never-confirmed@example.test', 'pending', RETENTION.unconfirmedSubscribersMs + DAY, 20 * DAY);
    await subscriber('asked-again-lately@example.test', 'pending', RETENTION.unconfirmedSubscribersMs + DAY, -DAY);
    await subscriber('new-pending@example.test', 'pending', DAY, -6 * DAY);
    await subscriber('confirmed-long-ago@example.test', 'subscribed', 3 * 365 * DAY, null);

    const counts = await pruneOldRecords(t.app);

    expect(counts).toEqual({
      loginAttempts: 1,
      mailOutbox: 3,
      sessions: 2,
      authTokens: 1,
      usedTotpSteps: 1,
      rateLimitCounters: 1,
      unconfirmedSubscribers: 1,
      orphanBlogImages: 0,
      dueScheduledPosts: 0,
      chatConversations: 0,
    });
    expect(await ids('attempts')).toEqual(['recent-attempt']);
    expect(await ids('mail')).toEqual(['old-pending', 'recent-sent']);
    expect(await ids('sessions')).toEqual(['just-expired', 'just-revoked', 'live']);
    expect(await ids('tokens')).toEqual(['link-lately-expired']);
    expect((await db.select().from(mfaUsedSteps).where(eq(mfaUsedSteps.userId, user.id))).map((r) => r.step)).toEqual([2]);
    expect((await db.select().from(rateLimitCounters)).map((r) => r.key)).toEqual(['test:current']);
    expect(await ids('subs')).toEqual(['asked-again-lately@example.test', 'confirmed-long-ago@example.test', 'new-pending@example.test']);

    // A second round finds nothing more; moving the clock on makes the recent rows old in their turn.
    expect(Object.values(await pruneOldRecords(t.app)).every((n) => n === 0)).toBe(true);
    t.clock.advance(2 * DAY);
    expect((await pruneOldRecords(t.app)).sessions).toBe(2);
    expect(await ids('sessions')).toEqual(['live']);
  });
});
