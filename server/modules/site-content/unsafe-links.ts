import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbExecutor } from '../../mail/mailer.ts';
import { siteContentPublished } from '../../db/schema/site-content.ts';
import { SECTION_SCHEMAS, isSectionKey, type SectionKey } from '../../../common/content/sections.ts';
import { linkFields } from '../../../common/schemas/links.ts';
import { linkProblem, safeHref } from '../../../common/schemas/link-check.ts';
import { recordAudit, SYSTEM_ACTOR } from '../audit/audit.ts';
import { announcePublish } from './site-content-events.ts';

// Issue 45, decision 300: published content stored before the link schemas (or written into the
// database by other means) may hold a link that is no web link. It is left out of what visitors
// see, never rendered: the snapshot of every process drops it when it reads a document
// (published.ts), a scheduled publish drops it before it goes live, and each start removes it from
// the stored published document, with a warning in the log and an audit event staff read.

/** A link taken out of a document: where, what it was, and what replaced it (a required field only). */
export interface DroppedLink {
  field: string;
  value: unknown;
  replacement?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The places in `value` that a schema path ('*': every item of a list) names, with their dotted field names. */
function placesOf(value: unknown, path: string[], at: string[] = []): { parent: Record<string, unknown>; key: string; field: string }[] {
  const [head, ...rest] = path;
  if (head === '*') return Array.isArray(value) ? value.flatMap((item, i) => placesOf(item, rest, [...at, String(i)])) : [];
  if (!isObject(value)) return [];
  if (rest.length === 0) return [{ parent: value, key: head, field: [...at, head].join('.') }];
  return placesOf(value[head], rest, [...at, head]);
}

/** What a required link is set to when its stored value is refused: the site's own address for the company's. */
const replacementFor = (publicUrl: string) => (section: SectionKey, field: string) =>
  section === 'company' && field === 'siteUrl' ? safeHref(publicUrl) : undefined;

/**
 * `document` without the links that are no web links: an optional one is left out, a required one
 * replaced when there is a replacement (else left out too). The rest of the record stays. The
 * document given is not changed; the same object comes back when nothing was dropped.
 */
export function withoutUnsafeLinks(section: SectionKey, document: unknown, publicUrl: string): { document: unknown; dropped: DroppedLink[] } {
  const fields = linkFields(SECTION_SCHEMAS[section]);
  const bad = (value: unknown) => typeof value !== 'string' || linkProblem(value) !== null;
  const isDropped = ({ parent, key }: { parent: Record<string, unknown>; key: string }) => parent[key] !== undefined && bad(parent[key]);
  if (!fields.some((f) => placesOf(document, f.path).some(isDropped))) return { document, dropped: [] };
  const copy = structuredClone(document);
  const dropped: DroppedLink[] = [];
  for (const f of fields) {
    for (const place of placesOf(copy, f.path).filter(isDropped)) {
      const { parent, key, field } = place;
      const value = parent[key];
      const replacement = f.optional ? undefined : replacementFor(publicUrl)(section, field);
      if (replacement === undefined) delete parent[key];
      else parent[key] = replacement;
      dropped.push({ field, value, ...(replacement === undefined ? {} : { replacement }) });
    }
  }
  return { document: copy, dropped };
}

/** The audit event of links taken out of a section's live document, for staff (the audit log). */
export async function recordDroppedLinks(tx: DbExecutor, section: SectionKey, dropped: DroppedLink[], at: Date, why: string): Promise<void> {
  await recordAudit(tx, { ...SYSTEM_ACTOR, at }, {
    action: 'content.unsafe-links-dropped',
    entityId: section,
    before: Object.fromEntries(dropped.map((d) => [d.field, d.value])),
    after: {
      ...Object.fromEntries(dropped.map((d) => [d.field, d.replacement ?? null])),
      reason: `${why}: ${dropped.length === 1 ? 'a link that was' : `${dropped.length} links that were`} not a web address (https:// or http://) ${dropped.length === 1 ? 'was' : 'were'} taken out. Enter ${dropped.length === 1 ? 'it' : 'them'} again in the website editor if needed.`,
    },
  });
}

/**
 * The start-up check (decision 300): every stored published document loses its unsafe links, each
 * section in its own transaction that locks the row, records the audit event and announces the
 * change to the other processes. Processes starting together each lock in turn, and the later ones
 * find nothing left to drop. Answers how many links were dropped.
 */
export async function dropUnsafePublishedLinks(app: FastifyInstance): Promise<number> {
  const rows = await app.db.select({ section: siteContentPublished.section, document: siteContentPublished.document }).from(siteContentPublished);
  let count = 0;
  for (const row of rows) {
    if (!isSectionKey(row.section)) continue;
    const section = row.section;
    if (withoutUnsafeLinks(section, row.document, app.config.publicUrl).dropped.length === 0) continue;
    count += await app.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(siteContentPublished).where(eq(siteContentPublished.section, section)).for('update');
      if (!locked) return 0;
      const { document, dropped } = withoutUnsafeLinks(section, locked.document, app.config.publicUrl);
      if (dropped.length === 0) return 0;
      await tx.update(siteContentPublished).set({ document }).where(eq(siteContentPublished.section, section));
      await recordDroppedLinks(tx, section, dropped, app.clock.now(), 'Checked at start');
      await announcePublish(tx, section, locked.revisionId);
      app.log.warn({ section, fields: dropped.map((d) => d.field) }, 'unsafe links dropped from the published website content');
      return dropped.length;
    });
  }
  return count;
}
