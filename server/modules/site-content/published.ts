import { inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { siteContentPublished } from '../../db/schema/site-content.ts';
import { SECTION_KEYS, type SectionDocument, type SectionKey } from '../../../common/content/sections.ts';
import { SECTION_SEEDS } from '../../../common/content/section-seeds.ts';

type Listener = (section: SectionKey) => void;

/**
 * This process's copy of what visitors see (decisions 283 and 284): every section's published
 * document, held in memory so a page render reads it without a query. It is read again from the
 * database when any process announces a publish (site-content.plugin.ts listens), and wholly after
 * the event connection was lost. Until the first load it holds the starting content, so a page
 * rendered during start-up still shows the site.
 */
export class PublishedContent {
  private readonly documents = new Map<SectionKey, unknown>(Object.entries(SECTION_SEEDS) as [SectionKey, unknown][]);
  private readonly listeners = new Set<Listener>();
  private loading: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The section's published document. */
  get<K extends SectionKey>(section: K): SectionDocument<K> {
    return this.documents.get(section) as SectionDocument<K>;
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
    const rows = await this.db
      .select({ section: siteContentPublished.section, document: siteContentPublished.document })
      .from(siteContentPublished)
      .where(inArray(siteContentPublished.section, [...sections]));
    for (const row of rows) {
      const section = row.section as SectionKey;
      if (JSON.stringify(this.documents.get(section)) === JSON.stringify(row.document)) continue;
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
