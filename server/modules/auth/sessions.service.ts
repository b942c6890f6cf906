import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sessions, users, type UserRole } from '../../db/schema/users.ts';

export interface SessionUser {
  _id: string;
  name: string;
  role: UserRole;
  email: string;
  username: string | null;
  mfaPending: boolean;
}

// Writing last_seen_at on every request would turn each read into a write; once a minute is enough.
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;
/** A session waiting for its second factor is only good for the next few minutes. */
export const MFA_PENDING_LIFETIME_MS = 10 * 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function sessionLifetimes(app: FastifyInstance, role: UserRole) {
  const c = app.config;
  const minutes =
    role === 'admin'
      ? { idle: c.ADMIN_SESSION_IDLE_MINUTES, absolute: c.ADMIN_SESSION_ABSOLUTE_MINUTES }
      : { idle: c.CLIENT_SESSION_IDLE_MINUTES, absolute: c.CLIENT_SESSION_ABSOLUTE_MINUTES };
  return { idleMs: minutes.idle * 60_000, absoluteMs: minutes.absolute * 60_000 };
}

/** Creates a session for the user and returns its token (shown once, stored only as a hash). */
export async function createSession(
  app: FastifyInstance,
  input: { userId: string; role: UserRole; mfaPending?: boolean; ip?: string; userAgent?: string },
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = app.clock.now();
  const { absoluteMs } = sessionLifetimes(app, input.role);
  const expiresAt = new Date(now.getTime() + (input.mfaPending ? Math.min(absoluteMs, MFA_PENDING_LIFETIME_MS) : absoluteMs));
  const [row] = await app.db
    .insert(sessions)
    .values({
      userId: input.userId,
      tokenHash: hashToken(token),
      mfaPending: input.mfaPending ?? false,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      ip: input.ip,
      userAgent: input.userAgent?.slice(0, 300),
    })
    .returning({ id: sessions.id });
  return { token, id: row.id, expiresAt };
}

/** Finds the live session of a token; expired (idle or absolute) and revoked sessions give null. */
export async function resolveSession(
  app: FastifyInstance,
  token: string,
): Promise<{ id: string; user: SessionUser } | null> {
  if (token.length > 200) return null;
  const [row] = await app.db
    .select({
      id: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      mfaPending: sessions.mfaPending,
      userId: users.id,
      name: users.name,
      role: users.role,
      email: users.email,
      username: users.username,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)))
    .limit(1);
  if (!row) return null;
  const now = app.clock.now();
  const { idleMs } = sessionLifetimes(app, row.role);
  if (row.expiresAt <= now || row.lastSeenAt.getTime() + idleMs <= now.getTime()) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_WRITE_INTERVAL_MS) {
    await app.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.id));
  }
  return {
    id: row.id,
    user: {
      _id: row.userId,
      name: row.name,
      role: row.role,
      email: row.email,
      username: row.username,
      mfaPending: row.mfaPending,
    },
  };
}

/** Ends one session. */
export async function revokeSession(app: FastifyInstance, sessionId: string): Promise<void> {
  await app.db.update(sessions).set({ revokedAt: app.clock.now() }).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user (after a password change), except the one given. */
export async function revokeUserSessions(app: FastifyInstance, userId: string, exceptId?: string): Promise<void> {
  await app.db
    .update(sessions)
    .set({ revokedAt: app.clock.now() })
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), exceptId ? ne(sessions.id, exceptId) : undefined),
    );
}
