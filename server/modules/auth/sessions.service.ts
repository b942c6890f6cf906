import { hash, randomBytes } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessions, type UserRole } from '../../db/schema/users.ts';
import { runNamed, type NamedStatement } from '../../db/named-statement.ts';
import type { MemberRole, StaffRole } from '../../../common/permissions.ts';

export interface SessionUser {
  _id: string;
  name: string;
  role: UserRole;
  /** A staff account's role (decision 272); null for clients. */
  staffRole: StaffRole | null;
  /** A client's organisation and role in it (decision 279); null for staff. */
  organisationId: string | null;
  memberRole: MemberRole | null;
  email: string;
  username: string | null;
  mfaPending: boolean;
}

// Writing last_seen_at on every request would turn each read into a write; once a minute is enough.
const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;
/** A session waiting for its second factor is only good for the next few minutes. */
const MFA_PENDING_LIFETIME_MS = 10 * 60_000;

// One-shot hash: no Hash object per call (every signed-in request hashes its token).
export const hashToken = (token: string) => hash('sha256', token, 'hex');

function sessionLifetimes(app: FastifyInstance, role: UserRole) {
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
// read without a query builder (decision 151). Same columns and conditions as before; the columns
// carry names of their own so that a route's read can sit beside them in one row (decision 171).
/** The session of a token ($1, its hash), with its user: at most one row. */
export const SESSION_SELECT = `select s.id as "sessionId", s.last_seen_at as "lastSeenAt", s.expires_at as "expiresAt", s.mfa_pending as "mfaPending",
    u.id as "userId", u.name as "userName", u.role as "userRole", u.staff_role as "userStaffRole", u.organisation_id as "userOrganisationId", u.member_role as "userMemberRole", u.email as "userEmail", u.username as "userUsername"
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = $1 and s.revoked_at is null and u.archived_at is null and u.deactivated_at is null
    limit 1`;
export const RESOLVE_SESSION: NamedStatement = { name: 'session-resolve', text: SESSION_SELECT };
const TOUCH_SESSION = { name: 'session-touch', text: 'update sessions set last_seen_at = $2 where id = $1' };

/** The session's columns, in every row of RESOLVE_SESSION and of a route's joined read. */
export interface SessionRow {
  sessionId: string;
  lastSeenAt: Date;
  expiresAt: Date;
  mfaPending: boolean;
  userId: string;
  userName: string;
  userRole: UserRole;
  userStaffRole: StaffRole | null;
  userOrganisationId: string | null;
  userMemberRole: MemberRole | null;
  userEmail: string;
  userUsername: string | null;
}

/**
 * A route's own read run in the same statement as the session's (decision 171): one round trip
 * instead of two. The statement's $1 is the token's hash and its text starts
 * `with s as (${SESSION_SELECT}) select s.*, ...`, so that it gives no row when the token has no
 * session and otherwise rows that each carry the session's columns (SessionRow). The access layer
 * (server/plugins/access.ts) runs it in place of RESOLVE_SESSION and judges the session exactly as
 * it judges RESOLVE_SESSION's row; the route then uses the rows only if they were read with the
 * values it would use itself.
 */
export interface JoinedSessionRead {
  statement: NamedStatement;
  /**
   * The route's values ($2, ...) from the request as routed (raw parameters and query string, not
   * yet validated), or null when they do not look valid: then only the session is read, the
   * route's own validation answers, and the route reads on its own if it gets that far. Values
   * given here must never make the statement fail (a malformed uuid, a negative limit).
   */
  values(request: FastifyRequest): unknown[] | null;
}

export interface ResolvedSession {
  id: string;
  user: SessionUser;
  /** The rows of the joined read, when one ran. */
  rows: SessionRow[] | null;
}

/**
 * Finds the live session of a token; expired (idle or absolute) and revoked sessions give null.
 * With `joined`, the route's read runs in the same statement (see JoinedSessionRead).
 */
export async function resolveSession(
  app: FastifyInstance,
  token: string,
  joined?: { statement: NamedStatement; values: unknown[] },
): Promise<ResolvedSession | null> {
  if (token.length > 200) return null;
  const hashed = hashToken(token);
  const { rows } = joined
    ? await runNamed<SessionRow>(app.pool, joined.statement, [hashed, ...joined.values])
    : await runNamed<SessionRow>(app.pool, RESOLVE_SESSION, [hashed]);
  const row = rows[0];
  if (!row) return null;
  const now = app.clock.now().getTime();
  const lastSeen = row.lastSeenAt.getTime();
  const { idleMs } = sessionLifetimes(app, row.userRole);
  if (row.expiresAt.getTime() <= now || lastSeen + idleMs <= now) return null;
  if (now - lastSeen > LAST_SEEN_WRITE_INTERVAL_MS) {
    await runNamed(app.pool, TOUCH_SESSION, [row.sessionId, new Date(now)]);
  }
  return {
    id: row.sessionId,
    user: {
      _id: row.userId,
      name: row.userName,
      role: row.userRole,
      staffRole: row.userStaffRole,
      organisationId: row.userOrganisationId,
      memberRole: row.userMemberRole,
      email: row.userEmail,
      username: row.userUsername,
      mfaPending: row.mfaPending,
    },
    rows: joined ? rows : null,
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

/** Whether a live stream's session is still good (checked without counting as activity). */
export async function streamSessionValid(app: FastifyInstance, sessionId: string, role: UserRole): Promise<boolean> {
  const [row] = await app.db
    .select({ expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!row || row.revokedAt) return false;
  const now = app.clock.now().getTime();
  const idleMinutes = role === 'admin' ? app.config.ADMIN_SESSION_IDLE_MINUTES : app.config.CLIENT_SESSION_IDLE_MINUTES;
  return row.expiresAt.getTime() > now && row.lastSeenAt.getTime() + idleMinutes * 60_000 > now;
}
