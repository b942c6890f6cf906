import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { authTokens, type AuthTokenPurpose } from '../../db/schema/auth.ts';
import { hashToken } from './sessions.service.ts';

export type Tx = Parameters<Parameters<FastifyInstance['db']['transaction']>[0]>[0];

/** How long each kind of link stays valid. */
export const LINK_LIFETIME_MS: Record<AuthTokenPurpose, number> = {
  invitation: 7 * 24 * 60 * 60_000,
  'password-reset': 60 * 60_000,
};

/** Makes a new single-use link token for the user; earlier unused ones of the same kind stop working. */
export async function issueLinkToken(
  app: FastifyInstance,
  userId: string,
  purpose: AuthTokenPurpose,
  db: Tx | FastifyInstance['db'] = app.db,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = app.clock.now();
  const expiresAt = new Date(now.getTime() + LINK_LIFETIME_MS[purpose]);
  await db.transaction(async (tx) => {
    await tx
      .update(authTokens)
      .set({ revokedAt: now })
      .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), isNull(authTokens.revokedAt)));
    await tx.insert(authTokens).values({ userId, purpose, tokenHash: hashToken(token), createdAt: now, expiresAt });
  });
  return { token, expiresAt };
}

/** A link of this kind that is still live at `now`: unused, unrevoked, unexpired. */
function liveLink(purpose: AuthTokenPurpose, now: Date) {
  return and(eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), isNull(authTokens.revokedAt), gt(authTokens.expiresAt, now));
}

/** The live (unused, unrevoked, unexpired) token row of a link, or null. */
export async function findLiveLinkToken(app: FastifyInstance, token: string, purpose: AuthTokenPurpose) {
  if (token.length > 200) return null;
  const [row] = await app.db
    .select()
    .from(authTokens)
    .where(
      and(eq(authTokens.tokenHash, hashToken(token)), liveLink(purpose, app.clock.now())),
    )
    .limit(1);
  return row ?? null;
}

/** Revokes every unused link of a kind for a user. */
export async function revokeLinkTokens(app: FastifyInstance, userId: string, purpose: AuthTokenPurpose): Promise<number> {
  const rows = await app.db
    .update(authTokens)
    .set({ revokedAt: app.clock.now() })
    .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt), isNull(authTokens.revokedAt)))
    .returning({ id: authTokens.id });
  return rows.length;
}

/** The newest live link of a kind for a user (to tell staff an invitation is pending). */
export async function liveLinkOf(app: FastifyInstance, userId: string, purpose: AuthTokenPurpose) {
  const [row] = await app.db
    .select({ expiresAt: authTokens.expiresAt })
    .from(authTokens)
    .where(
      and(eq(authTokens.userId, userId), liveLink(purpose, app.clock.now())),
    )
    .limit(1);
  return row ?? null;
}


/**
 * Marks a live link used and returns its row; a second use, an expired or revoked link gives null.
 * One UPDATE does both, so two requests racing with the same link cannot both win.
 */
export async function consumeLinkToken(app: FastifyInstance, tx: Tx, token: string, purpose: AuthTokenPurpose) {
  if (token.length > 200) return null;
  const now = app.clock.now();
  const [row] = await tx
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(eq(authTokens.tokenHash, hashToken(token)), liveLink(purpose, now)),
    )
    .returning();
  return row ?? null;
}
