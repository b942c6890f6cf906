import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sessions, type UserRole } from '../../db/schema/users.ts';
import { runNamed } from '../../db/named-statement.ts';

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

// One-shot hash: no Hash object per call (every signed-in request hashes its token).
export const hashToken = (token: string) => hash('sha256', token, 'hex');

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

// Every signed-in request resolves its session: named statements, planned once per connection and
// read without a query builder (decision 151). Same columns and conditions as before.
const RESOLVE_SESSION = {
  name: 'session-resolve',
  text: `select s.id, s.last_seen_at as "lastSeenAt", s.expires_at as "expiresAt", s.mfa_pending as "mfaPending",
    u.id as "userId", u.name, u.role, u.email, u.username
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = $1 and s.revoked_at is null
    limit 1`,
};
const TOUCH_SESSION = { name: 'session-touch', text: 'update sessions set last_seen_at = $2 where id = $1' };

interface SessionRow {
  id: string;
  lastSeenAt: Date;
  expiresAt: Date;
  mfaPending: boolean;
  userId: string;
  name: string;
  role: UserRole;
  email: string;
  username: string | null;
}

/** Finds the live session of a token; expired (idle or absolute) and revoked sessions give null. */
export async function resolveSession(
  app: FastifyInstance,
  token: string,
): Promise<{ id: string; user: SessionUser } | null> {
  if (token.length > 200) return null;
  const { rows } = await runNamed<SessionRow>(app.pool, RESOLVE_SESSION, [hashToken(token)]);
  const row = rows[0];
  if (!row) return null;
  const now = app.clock.now();
  const { idleMs } = sessionLifetimes(app, row.role);
  if (row.expiresAt <= now || row.lastSeenAt.getTime() + idleMs <= now.getTime()) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > LAST_SEEN_WRITE_INTERVAL_MS) {
    await runNamed(app.pool, TOUCH_SESSION, [row.id, now]);
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
