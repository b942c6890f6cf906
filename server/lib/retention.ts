import { and, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { chatConversations } from '../db/schema/chat.ts';
import { authTokens, loginAttempts, mfaUsedSteps } from '../db/schema/auth.ts';
import { rateLimitCounters } from '../db/schema/form-guard.ts';
import { mailOutbox } from '../db/schema/mail.ts';
import { newsletterSubscribers } from '../db/schema/newsletter.ts';
import { sessions } from '../db/schema/users.ts';
import { publishDueScheduledPosts } from '../modules/blog/blog.service.ts';
import { pruneOrphanBlogImages } from '../modules/blog/blog-images.service.ts';
import { sweepUnnamedFiles } from '../modules/files/stored-files.ts';

const DAY_MS = 24 * 60 * 60_000;

/**
 * How long records that only grow are kept (decision 008). Business records (clients, projects,
 * messages, applications, contact messages, confirmed subscribers) are never pruned here: staff own them.
 */
export const RETENTION = {
  /** Sign-in audit: a year, long enough to investigate an incident reported late. */
  loginAttemptsMs: 365 * DAY_MS,
  /** Delivered (or recorded-only, or given-up) mail: its text holds personal data and links. */
  mailOutboxMs: 90 * DAY_MS,
  /** Expired or revoked sessions are kept a day, so a log line about one can still be matched. */
  endedSessionsMs: DAY_MS,
  /** Expired links are kept a month, so the page can still say "expired" rather than "invalid". */
  expiredLinksMs: 30 * DAY_MS,
  /** Accepted authenticator steps matter only inside the ±1 step window (90 s); an hour is plenty. */
  usedTotpStepsMs: 60 * 60_000,
  /** A subscription never confirmed is no consent: the address goes once its link has long expired. */
  unconfirmedSubscribersMs: 30 * DAY_MS,
  /** Support-chat conversations (with their turns) untouched for a month (issue 11). */
  chatConversationsMs: 30 * DAY_MS,
} as const;

const RETENTION_INTERVAL_MS = 60 * 60_000;

/**
 * A temporary `.part` file not written to for this long belongs to an upload whose process died
 * (a live one writes every moment; even a 50 MB file over a slow line never pauses an hour).
 */
export const PARTIAL_UPLOAD_IDLE_MS = 60 * 60_000;

/** Removes `.part` leftovers of killed uploads from the file storage (at start-up and every retention round). */
export async function sweepPartialUploads(app: FastifyInstance): Promise<number> {
  if (!app.storage.sweepPartials) return 0;
  return app.storage.sweepPartials(new Date(app.clock.now().getTime() - PARTIAL_UPLOAD_IDLE_MS));
}

export type PruneCounts = Record<
    | 'loginAttempts'
  | 'mailOutbox'
  | 'sessions'
  | 'authTokens'
  | 'usedTotpSteps'
  | 'rateLimitCounters'
  | 'unconfirmedSubscribers'
  | 'orphanBlogImages'
  | 'dueScheduledPosts'
  | 'chatConversations',
  number
>;

/** Deletes what the retention periods above no longer keep. Time comes from app.clock. Returns counts. */
export async function pruneOldRecords(app: FastifyInstance): Promise<PruneCounts> {
  const now = app.clock.now().getTime();
  const ago = (ms: number) => new Date(now - ms);
  const count = async (rows: Promise<unknown[]>) => (await rows).length;
  const db = app.db;
  return {
    loginAttempts: await count(db.delete(loginAttempts).where(lt(loginAttempts.at, ago(RETENTION.loginAttemptsMs))).returning({ id: loginAttempts.id })),
    // Pending mail is still to be delivered: never pruned.
    mailOutbox: await count(
      db
        .delete(mailOutbox)
        .where(and(inArray(mailOutbox.status, ['sent', 'stored', 'failed', 'dropped']), lt(mailOutbox.createdAt, ago(RETENTION.mailOutboxMs))))
        .returning({ id: mailOutbox.id }),
    ),
    sessions: await count(
      db
        .delete(sessions)
        .where(
          or(
            lt(sessions.expiresAt, ago(RETENTION.endedSessionsMs)),
            and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, ago(RETENTION.endedSessionsMs))),
          ),
        )
        .returning({ id: sessions.id }),
    ),
    authTokens: await count(db.delete(authTokens).where(lt(authTokens.expiresAt, ago(RETENTION.expiredLinksMs))).returning({ id: authTokens.id })),
    usedTotpSteps: await count(
      db.delete(mfaUsedSteps).where(lt(mfaUsedSteps.usedAt, ago(RETENTION.usedTotpStepsMs))).returning({ step: mfaUsedSteps.step }),
    ),
    rateLimitCounters: await count(
      db.delete(rateLimitCounters).where(lt(rateLimitCounters.expiresAt, new Date(now))).returning({ key: rateLimitCounters.key }),
    ),
    unconfirmedSubscribers: await count(
      db
        .delete(newsletterSubscribers)
        .where(
          and(
            eq(newsletterSubscribers.status, 'pending'),
            lt(newsletterSubscribers.createdAt, ago(RETENTION.unconfirmedSubscribersMs)),
            // A link asked for again lately is still running: that visitor may yet confirm.
            or(isNull(newsletterSubscribers.confirmTokenExpiresAt), lt(newsletterSubscribers.confirmTokenExpiresAt, new Date(now))),
          ),
        )
        .returning({ id: newsletterSubscribers.id }),
    ),
    // Uploaded blog images that no post took up within a day (decision 093).
    orphanBlogImages: await pruneOrphanBlogImages(app),
    // Not a deletion: scheduled posts already public are recorded as published (decision 091).
    dueScheduledPosts: await publishDueScheduledPosts(app),
    chatConversations: await count(
      db.delete(chatConversations).where(lt(chatConversations.lastAt, ago(RETENTION.chatConversationsMs))).returning({ id: chatConversations.id }),
    ),
  };
}

/**
 * Prunes once soon after start and then every interval while the server runs (started by
 * server/start.ts, which stops it before closing the app). The timer does not keep the process alive.
 */
export function startRetention(app: FastifyInstance, intervalMs = RETENTION_INTERVAL_MS): () => void {
  let running = false;
  let stopped = false;
  const sweep = () =>
    sweepPartialUploads(app)
      .then(async (n) => {
        if (n > 0) app.log.info({ removed: n }, 'retention: unfinished upload files removed');
        // Files whose rows a deletion (or a killed upload) left without a name (decision 249).
        const unnamed = await sweepUnnamedFiles(app);
        if (unnamed > 0) app.log.info({ removed: unnamed }, 'retention: stored files no record names removed');
      })
      .catch((err) => app.log.error({ err }, 'sweeping unfinished or unnamed upload files failed'));
  // At start-up at once: leftovers of the process that was killed before this one.
  void sweep();
  const round = () => {
    if (running || stopped) return;
    running = true;
    pruneOldRecords(app)
      .then(async (counts) => {
        const total = Object.values(counts).reduce((a, b) => a + b, 0);
        if (total > 0) app.log.info({ pruned: counts }, 'retention: old records removed');
        await sweep();
      })
      .catch((err) => app.log.error({ err }, 'retention round failed'))
      .finally(() => {
        running = false;
      });
  };
  const first = setTimeout(round, 30_000);
  const timer = setInterval(round, intervalMs);
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}
