import { and, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { DbExecutor } from '../../mail/mailer.ts';
import { mediaItems } from '../../db/schema/media.ts';
import { siteContentDrafts, siteContentPublished, siteContentRevisions, siteContentSchedules } from '../../db/schema/site-content.ts';
import { AppError, conflict, notFound } from '../../../common/errors.ts';
import { formatDateTimeWithZone } from '../../../common/dates.ts';
import { SECTION_KEYS, SECTION_TITLES, sectionIssues, type SectionKey } from '../../../common/content/sections.ts';
import { mediaKindAt, mediaRefsIn } from '../../../common/content/media-refs.ts';
import { mediaKindOf } from '../../../common/schemas/media.ts';
import { setMediaUsage } from '../media/media-usage.ts';
import type { RevisionSummary, SectionSummary } from '../../../common/schemas/site-content.ts';
import { recordAudit, SYSTEM_ACTOR, type AuditContext } from '../audit/audit.ts';
import { announcePublish } from './site-content-events.ts';
import { recordDroppedLinks, withoutUnsafeLinks } from './unsafe-links.ts';

// Drafts, publishing, schedules and revisions of the website's content (issue 24, decision 283).

/** Who is acting: the audit context, and the name shown beside a save or a publish. */
export interface Editor {
  audit: AuditContext;
  id: string | null;
  name: string;
}

type Doc = Record<string, unknown>;
type DraftRow = typeof siteContentDrafts.$inferSelect;
type RevisionRow = typeof siteContentRevisions.$inferSelect;

const iso = (d: Date) => d.toISOString();

function assertValid(section: SectionKey, document: unknown): asserts document is Doc {
  const details = sectionIssues(section, document);
  if (details) throw new AppError('VALIDATION_FAILED', `${details[0].field}: ${details[0].message}`, details);
}

/** The refusal of a save made from an older version: who saved since, and when (nothing is overwritten). */
function staleVersion(current: DraftRow, edited: number): AppError {
  return conflict(
    `${current.savedByLabel} saved this section at ${formatDateTimeWithZone(current.savedAt)} (version ${current.version}); ` +
      `you were editing version ${edited}. Reload it to see their changes before saving yours.`,
  );
}

/** The message of an image field whose media item is gone. */
const MISSING_IMAGE = 'This image is no longer in the media library: choose another';
/** The messages of a field naming an item of the other kind (decision 295). */
const WRONG_KIND = {
  pdf: 'This is an image: choose a PDF here',
  image: 'This is a PDF: choose an image here',
} as const;

/**
 * The media references of `document` that name no item of the library, or an item of the wrong kind
 * (an image in a PDF field, a PDF in an image field), at their fields. The items found are locked KEY
 * SHARE for the caller's transaction: a delete of one of them waits for it and then sees the usage
 * this transaction records (decision 291).
 */
async function missingMedia(tx: DbExecutor, document: unknown): Promise<{ field: string; message: string; id: string }[]> {
  const refs = mediaRefsIn(document);
  if (refs.length === 0) return [];
  const ids = [...new Set(refs.map((r) => r.id))];
  const rows = await tx
    .select({ id: mediaItems.id, mime: mediaItems.mime })
    .from(mediaItems)
    .where(inArray(mediaItems.id, ids))
    .for('key share');
  const kinds = new Map(rows.map((r) => [r.id, mediaKindOf(r.mime)]));
  return refs.flatMap((r) => {
    const field = ['document', ...r.path].join('.');
    const kind = kinds.get(r.id);
    const wanted = mediaKindAt(r.path);
    if (!kind)
      return [
        {
          field,
          message: wanted === 'pdf' ? 'This PDF is no longer in the media library: choose another' : MISSING_IMAGE,
          id: r.id,
        },
      ];
    return kind === wanted ? [] : [{ field, message: WRONG_KIND[wanted], id: r.id }];
  });
}

/** Refuses (400, at each field) a document naming a media item that is not in the library. */
async function assertMediaExists(tx: DbExecutor, document: unknown): Promise<void> {
  const missing = await missingMedia(tx, document);
  if (missing.length === 0) return;
  const details = missing.map(({ field, message }) => ({ field, message }));
  throw new AppError('VALIDATION_FAILED', `${details[0].field}: ${details[0].message}`, details);
}

/** What the media library shows as the place a section's published images are used. */
const usageLabel = (section: SectionKey) => `Website: ${SECTION_TITLES[section]}`;

const draftOut = (d: DraftRow) => ({ version: d.version, savedAt: iso(d.savedAt), savedBy: d.savedByLabel, document: d.document as Doc });
const revisionOut = (r: RevisionRow): RevisionSummary => ({
  id: r.id,
  number: r.number,
  publishedAt: iso(r.publishedAt),
  publishedBy: r.publishedByLabel,
  source: r.source as RevisionSummary['source'],
});

/** The draft row, locked for this transaction, at the version the caller edited (409 otherwise). */
async function lockDraft(tx: DbExecutor, section: SectionKey, version: number): Promise<DraftRow> {
  const [draft] = await tx.select().from(siteContentDrafts).where(eq(siteContentDrafts.section, section)).for('update');
  if (!draft) throw notFound('This section has no content yet');
  if (draft.version !== version) throw staleVersion(draft, version);
  return draft;
}

export async function listSections(db: Db): Promise<SectionSummary[]> {
  const rows = await db
    .select({
      section: siteContentDrafts.section,
      changed: sql<boolean>`${siteContentDrafts.document} <> ${siteContentPublished.document}`,
      draftSavedAt: siteContentDrafts.savedAt,
      draftSavedBy: siteContentDrafts.savedByLabel,
      publishedAt: siteContentPublished.publishedAt,
      publishedBy: siteContentPublished.publishedByLabel,
      scheduledAt: siteContentSchedules.publishAt,
    })
    .from(siteContentDrafts)
    .innerJoin(siteContentPublished, eq(siteContentPublished.section, siteContentDrafts.section))
    .leftJoin(siteContentSchedules, and(eq(siteContentSchedules.section, siteContentDrafts.section), eq(siteContentSchedules.status, 'pending')));
  const bySection = new Map(rows.map((r) => [r.section, r]));
  return SECTION_KEYS.flatMap((section) => {
    const r = bySection.get(section);
    if (!r) return [];
    return [
      {
        section,
        title: SECTION_TITLES[section],
        changed: r.changed,
        draftSavedAt: iso(r.draftSavedAt),
        draftSavedBy: r.draftSavedBy,
        publishedAt: iso(r.publishedAt),
        publishedBy: r.publishedBy,
        scheduledAt: r.scheduledAt ? iso(r.scheduledAt) : null,
      },
    ];
  });
}

export async function getSection(db: Db, section: SectionKey) {
  const [[draft], [published], [schedule]] = await Promise.all([
    db.select().from(siteContentDrafts).where(eq(siteContentDrafts.section, section)),
    db.select().from(siteContentPublished).where(eq(siteContentPublished.section, section)),
    db
      .select()
      .from(siteContentSchedules)
      .where(and(eq(siteContentSchedules.section, section), eq(siteContentSchedules.status, 'pending'))),
  ]);
  if (!draft || !published) throw notFound('This section has no content yet');
  return {
    section,
    title: SECTION_TITLES[section],
    draft: draftOut(draft),
    published: {
      revisionId: published.revisionId,
      publishedAt: iso(published.publishedAt),
      publishedBy: published.publishedByLabel,
      document: published.document as Doc,
    },
    schedule: schedule ? { id: schedule.id, publishAt: iso(schedule.publishAt), createdBy: schedule.createdByLabel } : null,
  };
}

/** An autosave: stored only when valid and made from the current version, which it moves on by one. */
export async function saveDraft(app: FastifyInstance, who: Editor, section: SectionKey, input: { version: number; document: Doc }) {
  assertValid(section, input.document);
  return app.db.transaction(async (tx) => {
    await lockDraft(tx, section, input.version);
    await assertMediaExists(tx, input.document);
    return writeDraft(tx, who, section, input.document, app.clock.now());
  });
}

async function writeDraft(tx: DbExecutor, who: Editor, section: SectionKey, document: Doc, now: Date) {
  const [saved] = await tx
    .update(siteContentDrafts)
    .set({ document, version: sql`${siteContentDrafts.version} + 1`, savedAt: now, savedBy: who.id, savedByLabel: who.name })
    .where(eq(siteContentDrafts.section, section))
    .returning();
  return draftOut(saved);
}

/**
 * Makes `document` the section's live one, in the caller's transaction: the revision, the published
 * row, the audit event and the announcement to every process commit together or not at all. The
 * published row is locked first, so two publishes of one section take their numbers in turn.
 */
async function publishDocument(
  tx: DbExecutor,
  who: Editor,
  section: SectionKey,
  document: Doc,
  source: 'publish' | 'schedule',
  now: Date,
): Promise<RevisionRow> {
  const [current] = await tx.select().from(siteContentPublished).where(eq(siteContentPublished.section, section)).for('update');
  if (!current) throw notFound('This section has no content yet');
  const [{ next }] = await tx
    .select({ next: sql<number>`coalesce(max(${siteContentRevisions.number}), 0) + 1` })
    .from(siteContentRevisions)
    .where(eq(siteContentRevisions.section, section));
  const [revision] = await tx
    .insert(siteContentRevisions)
    .values({ section, number: next, document, publishedAt: now, publishedBy: who.id, publishedByLabel: who.name, source })
    .returning();
  await tx
    .update(siteContentPublished)
    .set({ document, revisionId: revision.id, publishedAt: now, publishedByLabel: who.name })
    .where(eq(siteContentPublished.section, section));
  // The images this section now shows, so the library refuses to delete them (decision 291).
  await setMediaUsage(tx, `site-content:${section}`, usageLabel(section), mediaRefsIn(document).map((r) => r.id));
  await recordAudit(tx, who.audit, { action: 'content.publish', entityId: section, before: current.document as Doc, after: document });
  await announcePublish(tx, section, revision.id);
  return revision;
}

/** Publishes the draft the caller was looking at (409 if it has moved on, or if it is already live). */
export async function publishDraft(app: FastifyInstance, who: Editor, section: SectionKey, version: number) {
  const revision = await app.db.transaction(async (tx) => {
    const draft = await lockDraft(tx, section, version);
    const [{ same }] = await tx
      .select({ same: sql<boolean>`${siteContentPublished.document} = ${JSON.stringify(draft.document)}::jsonb` })
      .from(siteContentPublished)
      .where(eq(siteContentPublished.section, section));
    if (same) throw conflict('Visitors already see this draft: there is nothing to publish.');
    assertValid(section, draft.document);
    await assertMediaExists(tx, draft.document);
    return publishDocument(tx, who, section, draft.document as Doc, 'publish', app.clock.now());
  });
  // Decision 289: this process's snapshot (and with it its pages) has the change before the editor
  // is told it is live; other processes read it on the announcement.
  await app.publishedContent.reload([section]);
  return revisionOut(revision);
}

/** Publishes the draft as it is now at `publishAt`, replacing the section's earlier schedule. */
export async function scheduleDraft(app: FastifyInstance, who: Editor, section: SectionKey, input: { version: number; publishAt: string }) {
  const now = app.clock.now();
  const publishAt = new Date(input.publishAt);
  if (publishAt <= now) {
    const message = 'Choose a time in the future';
    throw new AppError('VALIDATION_FAILED', `publishAt: ${message}`, [{ field: 'body.publishAt', message }]);
  }
  return app.db.transaction(async (tx) => {
    const draft = await lockDraft(tx, section, input.version);
    // A draft saved under older rules (a link that is no web address, decision 300) waits for a fix.
    assertValid(section, draft.document);
    await assertMediaExists(tx, draft.document);
    await tx
      .update(siteContentSchedules)
      .set({ status: 'cancelled' })
      .where(and(eq(siteContentSchedules.section, section), eq(siteContentSchedules.status, 'pending')));
    const [row] = await tx
      .insert(siteContentSchedules)
      .values({ section, document: draft.document, publishAt, createdAt: now, createdBy: who.id, createdByLabel: who.name })
      .returning();
    await recordAudit(tx, who.audit, { action: 'content.schedule', entityId: section, after: { publishAt: iso(publishAt) } });
    return { id: row.id, publishAt: iso(row.publishAt), createdBy: row.createdByLabel };
  });
}

export async function cancelSchedule(app: FastifyInstance, who: Editor, section: SectionKey) {
  await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(siteContentSchedules)
      .set({ status: 'cancelled' })
      .where(and(eq(siteContentSchedules.section, section), eq(siteContentSchedules.status, 'pending')))
      .returning();
    if (!row) throw notFound('This section has no scheduled publish');
    await recordAudit(tx, who.audit, { action: 'content.unschedule', entityId: section, before: { publishAt: iso(row.publishAt) } });
  });
}

/**
 * Publishes every schedule whose time has come; returns how many. Each due row is claimed with
 * FOR UPDATE SKIP LOCKED and marked done in the transaction that publishes it, so with several
 * processes ticking at once each schedule is published exactly once: another process either skips
 * the locked row or, after the commit, no longer finds it pending.
 */
export async function publishDueSchedules(app: FastifyInstance): Promise<number> {
  const now = app.clock.now();
  return app.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(siteContentSchedules)
      .where(and(eq(siteContentSchedules.status, 'pending'), lte(siteContentSchedules.publishAt, now)))
      .orderBy(siteContentSchedules.publishAt)
      .for('update', { skipLocked: true });
    let published = 0;
    for (const row of due) {
      // An image deleted since the scheduling: the schedule is withdrawn, saying why, rather than
      // publishing a page with a broken picture (the draft and the live page stay as they are).
      const missing = await missingMedia(tx, row.document);
      if (missing.length > 0) {
        const reason = `Not published: ${missing.length === 1 ? 'an image it shows was' : `${missing.length} images it shows were`} deleted from the media library after it was scheduled (${missing.map((m) => m.field.replace(/^document\./, '')).join(', ')}).`;
        await tx.update(siteContentSchedules).set({ status: 'cancelled' }).where(eq(siteContentSchedules.id, row.id));
        await recordAudit(tx, { ...SYSTEM_ACTOR, at: now }, {
          action: 'content.schedule-withdrawn',
          entityId: row.section,
          before: { publishAt: iso(row.publishAt), scheduledBy: row.createdByLabel },
          after: { reason, missingMedia: missing.map((m) => m.id) },
        });
        app.log.warn({ section: row.section, scheduleId: row.id, missing }, 'scheduled content publish withdrawn: media deleted');
        continue;
      }
      const who: Editor = {
        id: row.createdBy,
        name: `${row.createdByLabel} (scheduled)`,
        audit: { actorId: row.createdBy, actorLabel: `schedule: ${row.createdByLabel}`, address: null, at: now },
      };
      // Scheduled before the link schemas (decision 300): it goes live without the unsafe links.
      const { document, dropped } = withoutUnsafeLinks(row.section as SectionKey, row.document, app.config.publicUrl);
      if (dropped.length) {
        await recordDroppedLinks(tx, row.section as SectionKey, dropped, now, 'Scheduled publish');
        app.log.warn({ section: row.section, scheduleId: row.id, fields: dropped.map((d) => d.field) }, 'unsafe links dropped from a scheduled website publish');
      }
      const revision = await publishDocument(tx, who, row.section as SectionKey, document as Doc, 'schedule', now);
      await tx.update(siteContentSchedules).set({ status: 'done', revisionId: revision.id }).where(eq(siteContentSchedules.id, row.id));
      published += 1;
    }
    return published;
  });
}

export async function listRevisions(db: Db, section: SectionKey): Promise<RevisionSummary[]> {
  const rows = await db.select().from(siteContentRevisions).where(eq(siteContentRevisions.section, section)).orderBy(desc(siteContentRevisions.number));
  return rows.map(revisionOut);
}

async function findRevision(db: DbExecutor, section: SectionKey, id: string): Promise<RevisionRow> {
  const [row] = await db
    .select()
    .from(siteContentRevisions)
    .where(and(eq(siteContentRevisions.section, section), eq(siteContentRevisions.id, id)));
  if (!row) throw notFound('No such revision of this section');
  return row;
}

/** A revision with the one published before it, for the side-by-side view. */
export async function getRevision(db: Db, section: SectionKey, id: string) {
  const row = await findRevision(db, section, id);
  const [previous] = await db
    .select()
    .from(siteContentRevisions)
    .where(and(eq(siteContentRevisions.section, section), lt(siteContentRevisions.number, row.number)))
    .orderBy(desc(siteContentRevisions.number))
    .limit(1);
  const withDoc = (r: RevisionRow) => ({ ...revisionOut(r), document: r.document as Doc });
  return { revision: withDoc(row), previous: previous ? withDoc(previous) : null };
}

/** Makes an earlier revision the draft (a new version); visitors see nothing until it is published. */
export async function restoreRevision(app: FastifyInstance, who: Editor, section: SectionKey, id: string, version: number) {
  return app.db.transaction(async (tx) => {
    const revision = await findRevision(tx, section, id);
    // A revision made under older rules must meet today's before it becomes the draft.
    assertValid(section, revision.document);
    await lockDraft(tx, section, version);
    await assertMediaExists(tx, revision.document);
    const draft = await writeDraft(tx, who, section, revision.document as Doc, app.clock.now());
    await recordAudit(tx, who.audit, { action: 'content.restore', entityId: section, after: { revision: revision.number } });
    return draft;
  });
}
