import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { siteContentDrafts, siteContentPublished, siteContentRevisions } from '../../db/schema/site-content.ts';
import { SECTION_KEYS } from '../../../common/content/sections.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';

const SEED_LABEL = 'System (starting content)';

/**
 * Copies today's content modules into every section the database does not have yet (decision 283):
 * the starting document is published as revision 1 and is the first draft. Runs at every start, on
 * every process; a section that exists is never touched, and two processes starting together
 * insert it once (the primary keys decide, the loser's transaction changes nothing).
 */
export async function seedSiteContent(db: Db, now: Date): Promise<number> {
  const present = new Set(
    (await db.select({ section: siteContentPublished.section }).from(siteContentPublished).where(inArray(siteContentPublished.section, SECTION_KEYS))).map(
      (r) => r.section,
    ),
  );
  let added = 0;
  for (const section of SECTION_KEYS.filter((k) => !present.has(k))) {
    const document = SECTION_SEEDS[section];
    added += await db.transaction(async (tx) => {
      const [revision] = await tx
        .insert(siteContentRevisions)
        .values({ section, number: 1, document, publishedAt: now, publishedByLabel: SEED_LABEL, source: 'seed' })
        .onConflictDoNothing()
        .returning({ id: siteContentRevisions.id });
      if (!revision) return 0;
      await tx.insert(siteContentPublished).values({ section, document, revisionId: revision.id, publishedAt: now, publishedByLabel: SEED_LABEL });
      await tx.insert(siteContentDrafts).values({ section, document, savedAt: now, savedByLabel: SEED_LABEL }).onConflictDoNothing();
      return 1;
    });
  }
  return added;
}
