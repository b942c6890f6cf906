import { eq, inArray, sql } from 'drizzle-orm';
import { AppError } from '../../../common/errors.ts';
import { mediaItems, mediaUsages } from '../../db/schema/media.ts';
import type { DbExecutor } from '../../mail/mailer.ts';

/**
 * Records, in the caller's transaction, that the place `usedIn` (a stable key such as
 * 'team-member:<id>' or 'page:about') now shows exactly `mediaIds`, named to staff as `label`
 * ('Team: Ada Obi'). The content store calls it on each publish; an empty list clears the place.
 * An id that names no item is refused (400) and the caller's transaction fails with it.
 */
export async function setMediaUsage(tx: DbExecutor, usedIn: string, label: string, mediaIds: readonly string[]): Promise<void> {
  const ids = [...new Set(mediaIds)];
  if (ids.length > 0) {
    // KEY SHARE: a delete of one of these items waits for this transaction, then sees the usage.
    const found = await tx.select({ id: mediaItems.id }).from(mediaItems).where(inArray(mediaItems.id, ids)).for('key share');
    const missing = ids.filter((id) => !found.some((f) => f.id === id));
    if (missing.length > 0) throw new AppError('BAD_REQUEST', `An image used in ${label} is no longer in the media library`, { missing });
  }
  await tx.delete(mediaUsages).where(eq(mediaUsages.usedIn, usedIn));
  if (ids.length > 0) await tx.insert(mediaUsages).values(ids.map((mediaId) => ({ mediaId, usedIn, label })));
}

/** The places each of `mediaIds` is used, by item. */
export async function usagesOf(db: DbExecutor, mediaIds: readonly string[]): Promise<Map<string, { usedIn: string; label: string }[]>> {
  const out = new Map<string, { usedIn: string; label: string }[]>();
  if (mediaIds.length === 0) return out;
  const rows = await db
    .select()
    .from(mediaUsages)
    .where(inArray(mediaUsages.mediaId, [...mediaIds]))
    .orderBy(sql`${mediaUsages.label} collate "C"`);
  for (const r of rows) out.set(r.mediaId, [...(out.get(r.mediaId) ?? []), { usedIn: r.usedIn, label: r.label }]);
  return out;
}
