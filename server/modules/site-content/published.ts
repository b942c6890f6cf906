import { inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { siteContentPublished } from '../../db/schema/site-content.ts';
import { mediaItems } from '../../db/schema/media.ts';
import { SECTION_KEYS, type SectionDocument, type SectionKey } from '../../../common/content/sections.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';
import { mediaKindOf, mediaPdfUrl, mediaPicture, type MediaPicture } from '../../../common/schemas/media.ts';
import { MEDIA_REFERENCE, mediaReferencesIn, type SiteContentReader } from '../../../common/site-content-context.ts';
import { withoutUnsafeLinks } from './unsafe-links.ts';

/**
 * The media items that `references` name, ready to draw (decision 289): a page render finds them in
 * the snapshot instead of querying. A reference to an item that no longer exists is left out (the
 * page draws nothing for it).
 */
export async function mediaPicturesOf(db: Db, references: Iterable<string>): Promise<Map<string, MediaPicture>> {
  const ids = [...new Set([...references].map((r) => MEDIA_REFERENCE.exec(r)?.[1]).filter((id): id is string => id !== undefined))];
  const pictures = new Map<string, MediaPicture>();
  if (ids.length === 0) return pictures;
  const rows = await db.select().from(mediaItems).where(inArray(mediaItems.id, ids));
  for (const row of rows) {
    const picture = mediaPicture({ ...row, _id: row.id });
    // A PDF (a certificate's, decision 295) has no picture: the page links it with its size and title.
    if (mediaKindOf(row.mime) === 'pdf')
      picture.document = { url: mediaPdfUrl(row.id), bytes: row.bytes, title: row.altText };
    pictures.set(`media/${row.id}`, picture);
  }
  return pictures;
}

type Listener = (section: SectionKey) => void;

/**
 * This process's copy of what visitors see (decisions 283 and 284): every section's published
 * document, held in memory so a page render reads it without a query. It is read again from the
 * database when any process announces a publish (site-content.plugin.ts listens), and wholly after
 * the event connection was lost. Until the first load it holds the starting content, so a page
 * rendered during start-up still shows the site.
 */
export class PublishedContent implements SiteContentReader {
  readonly preview = null;
  private pictures = new Map<string, MediaPicture>();
  private readonly documents = new Map<SectionKey, unknown>(Object.entries(SECTION_SEEDS) as [SectionKey, unknown][]);
  private readonly listeners = new Set<Listener>();
  private loading: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** The site's own address, which replaces a company address that is no web address (decision 300). */
    private readonly publicUrl: string,
  ) {}

  /** The section's published document. */
  get<K extends SectionKey>(section: K): SectionDocument<K> {
    return this.documents.get(section) as SectionDocument<K>;
  }

  /** The media items the published documents name (loaded with them). */
  media(): Record<string, MediaPicture> {
    return Object.fromEntries(this.pictures);
  }

  /** Called with a section's name after its document here changed; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the sections again (all of them when none are named); loads run one after another. */
  reload(sections: readonly SectionKey[] = SECTION_KEYS): Promise<void> {
    this.loading = this.loading.then(() => this.load(sections)).catch((err: unknown) => this.log.error({ err }, 'could not read the published content'));
    return this.loading;
  }

  private async load(sections: readonly SectionKey[]) {
    const stored = await this.db
      .select({ section: siteContentPublished.section, document: siteContentPublished.document })
      .from(siteContentPublished)
      .where(inArray(siteContentPublished.section, [...sections]));
    // Decision 300: a link that is no web link never reaches a render, however it got stored.
    const rows = stored.map((row) => {
      const { document, dropped } = withoutUnsafeLinks(row.section as SectionKey, row.document, this.publicUrl);
      if (dropped.length) this.log.warn({ section: row.section, fields: dropped.map((d) => d.field) }, 'unsafe links left out of the published website content');
      return { section: row.section, document };
    });
    const changed = rows.filter((row) => JSON.stringify(this.documents.get(row.section as SectionKey)) !== JSON.stringify(row.document));
    if (changed.length === 0 && this.pictures.size > 0) return;
    // The media the new documents name are read before the documents change, so no render sees a
    // reference without its picture.
    const references = new Set<string>();
    for (const key of SECTION_KEYS) {
      const next = changed.find((row) => row.section === key);
      mediaReferencesIn(next ? next.document : this.documents.get(key), references);
    }
    this.pictures = await mediaPicturesOf(this.db, references);
    for (const row of changed) {
      const section = row.section as SectionKey;
      this.documents.set(section, row.document);
      for (const listener of this.listeners) {
        try {
          listener(section);
        } catch (err) {
          this.log.error({ err, section }, 'published content listener failed');
        }
      }
    }
  }
}
