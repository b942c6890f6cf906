import { and, desc, eq, gt, lte, min, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { blogImages, blogPosts, type BlogImageVariant } from '../../db/schema/blog.ts';
import { htmlToText, sanitizeArticleHtml } from '../../lib/article-html.ts';
import { BLOG_IMAGE_WIDTHS, blogImageUrl } from '../../../common/schemas/blog.ts';
import {
  ARTICLES_PAGE_SIZE,
  ARTICLES_TEXT,
  RELATED_ARTICLES_MAX,
  type ArticleCard,
  type ArticleDetail,
  type ArticleImage,
  type ArticlesPage,
  type ArticlesReader,
  type NewsArticle,
} from '../../../common/schemas/articles.ts';
import { pictureAddress, readNewsCache, refreshNewsCache, type NewsSettings } from './news.service.ts';

// The public list holds at most this many company posts (newest first); a company blog stays far below.
const PUBLIC_POSTS_MAX = 1000;
// Even without any change the data is read again this often (a safety net for a missed event).
const SNAPSHOT_MAX_AGE_MS = 10 * 60 * 1000;
// While a news refresh runs in the background, the current copy stays this long at least.
const REFRESH_GRACE_MS = 5_000;

/** A post is public when published (or scheduled and due) and visible: the one rule of contract 2. */
function publicPostCondition(now: Date) {
  return and(
    eq(blogPosts.visibility, 'visible'),
    or(eq(blogPosts.status, 'published'), and(eq(blogPosts.status, 'scheduled'), lte(blogPosts.publishAt, now))),
  );
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Plain text of some HTML with its entities decoded (React escapes it again when rendering). */
function plainText(html: string | null | undefined): string | null {
  if (!html) return null;
  const text = htmlToText(html).replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1].toLowerCase() === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
  return text.trim() || null;
}

/** Sanitised again at render time; HTML that fails the check renders as its plain text. */
function safeHtml(html: string | null | undefined): string {
  if (!html) return '';
  try {
    return sanitizeArticleHtml(html);
  } catch {
    const text = plainText(html) ?? '';
    return `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`;
  }
}

function ownImage(id: string, variants: BlogImageVariant[] | null): ArticleImage {
  if (!variants?.length) return null;
  const of = (format: 'avif' | 'webp') =>
    BLOG_IMAGE_WIDTHS.flatMap((w) => (variants.some((v) => v.format === format && v.width === w) ? [`${blogImageUrl(id, w, format)} ${w}w`] : [])).join(', ');
  const webp = variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width);
  const middle = webp.find((v) => v.width >= 960) ?? webp[webp.length - 1];
  if (!middle) return null;
  return {
    kind: 'own',
    avifSrcSet: of('avif'),
    webpSrcSet: of('webp'),
    src: blogImageUrl(id, middle.width as (typeof BLOG_IMAGE_WIDTHS)[number], 'webp'),
    width: middle.width,
    height: middle.height,
  };
}

interface Snapshot {
  posts: ArticleDetail[];
  news: ArticleDetail[];
  newsError: string | null;
  validUntil: Date;
}

export interface ArticlesServiceDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  news: NewsSettings;
  /** The company's name as published now (a post's source), read at each build (decision 290). */
  companyName: () => string;
}

/**
 * The public side of the articles: the company's public posts and the cached news, held in memory
 * as one snapshot until something changes ('blog_changed', a news refresh) or a time passes (the
 * next scheduled post falls due, the news expires). Listeners hear every invalidation (the page cache).
 */
export class ArticlesService implements ArticlesReader {
  private snapshot: Snapshot | null = null;
  private building: Promise<Snapshot> | null = null;
  private generation = 0;
  private refreshing: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: ArticlesServiceDeps) {}

  /** Forgets everything held in memory (a post changed, or the news was refreshed). */
  invalidate() {
    this.generation++;
    this.snapshot = null;
    for (const listener of this.listeners) listener();
  }

  /** Called on every invalidation. */
  onInvalidate(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for a news refresh that is under way (tests, orderly shutdown). */
  async settled() {
    await this.refreshing;
  }

  /** Refreshes the news now if it is due (one refresh per process at a time; one across processes by lock). */
  refreshNews(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const outcome = await refreshNewsCache({ ...this.deps, settings: this.deps.news });
        if (outcome !== 'fresh') this.invalidate();
        else if (this.snapshot && this.snapshot.validUntil <= this.deps.clock.now()) this.invalidate();
      } catch (err) {
        this.deps.log.error({ err }, 'news refresh could not run');
      }
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async current(): Promise<Snapshot> {
    const now = this.deps.clock.now();
    if (this.snapshot && this.snapshot.validUntil > now) return this.snapshot;
    if (!this.building) {
      const generation = this.generation;
      this.building = this.build().finally(() => {
        this.building = null;
      });
      const built = await this.building;
      if (generation === this.generation) this.snapshot = built;
      return built;
    }
    return this.building;
  }

  private async build(): Promise<Snapshot> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const companyName = this.deps.companyName();
    const rows = await db
      .select({ post: blogPosts, variants: blogImages.variants })
      .from(blogPosts)
      .leftJoin(blogImages, eq(blogImages.id, blogPosts.bannerImageId))
      .where(publicPostCondition(now))
      .orderBy(desc(blogPosts.publishAt), desc(blogPosts.createdAt))
      .limit(PUBLIC_POSTS_MAX);
    const [{ nextDue }] = await db
      .select({ nextDue: min(blogPosts.publishAt) })
      .from(blogPosts)
      .where(and(eq(blogPosts.status, 'scheduled'), eq(blogPosts.visibility, 'visible'), gt(blogPosts.publishAt, now)));

    const posts = rows.map(({ post, variants }): ArticleDetail => ({
      id: post.slug,
      kind: 'post',
      title: post.title,
      description: plainText(post.excerpt),
      source: companyName,
      publishedAt: (post.publishAt ?? post.firstPublishedAt ?? post.createdAt).toISOString(),
      category: post.category,
      image: post.bannerImageId ? ownImage(post.bannerImageId, variants) : null,
      bodyHtml: safeHtml(post.content),
      url: null,
      author: post.author,
      updatedAt: post.updatedAt.toISOString(),
      related: [],
    }));

    let validUntil = new Date(now.getTime() + SNAPSHOT_MAX_AGE_MS);
    if (nextDue && nextDue < validUntil) validUntil = nextDue;
    let news: ArticleDetail[] = [];
    let newsError: string | null = null;
    if (this.deps.news.key) {
      let cached = await readNewsCache(db);
      if (!cached || (cached.nextAttemptAt <= now && !cached.fetchedAt)) {
        // Nothing good to show yet: this request waits for an answer (bounded by the time-out).
        await this.refreshNews();
        cached = await readNewsCache(db);
      } else if (cached.nextAttemptAt <= now) {
        // Stale: served as it is while one refresh runs in the background.
        void this.refreshNews();
      }
      if (cached) {
        news = cached.articles.map((a) => this.newsDetail(a));
        if (!cached.fetchedAt) newsError = ARTICLES_TEXT.fetchFailed;
        const due = cached.nextAttemptAt > now ? cached.nextAttemptAt : new Date(now.getTime() + REFRESH_GRACE_MS);
        if (due < validUntil) validUntil = due;
      }
    }
    return { posts, news, newsError, validUntil };
  }

  private newsDetail(a: NewsArticle): ArticleDetail {
    return {
      id: a.id,
      kind: 'news',
      title: a.title,
      description: plainText(a.description),
      source: a.source.name,
      publishedAt: a.publishedAt,
      category: null,
      image: a.urlToImage ? { kind: 'remote', src: pictureAddress(a.urlToImage) } : null,
      bodyHtml: safeHtml(a.content ?? a.description),
      url: a.url,
      author: null,
      updatedAt: null,
      related: [],
    };
  }

  async listPage({ page, category }: { page: number; category: string | null }) {
    const snap = await this.current();
    const posts = category ? snap.posts.filter((p) => p.category === category) : snap.posts;
    const all = category ? posts : [...posts, ...snap.news].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt));
    const pages = Math.max(1, Math.ceil(all.length / ARTICLES_PAGE_SIZE));
    const items = all.slice((page - 1) * ARTICLES_PAGE_SIZE, page * ARTICLES_PAGE_SIZE).map(toCard);
    const data: ArticlesPage = { items, page, pages, total: all.length, category, newsError: category ? null : snap.newsError };
    return { data, validUntil: snap.validUntil };
  }

  async findArticle(id: string) {
    const snap = await this.current();
    const post = snap.posts.find((p) => p.id === id);
    const found = post ?? snap.news.find((n) => n.id === id);
    if (!found) return { data: null, validUntil: snap.validUntil };
    const siblings = post ? snap.posts : snap.news.filter((n) => n.source === found.source);
    const related = siblings.filter((s) => s.id !== found.id).slice(0, RELATED_ARTICLES_MAX).map(toCard);
    return { data: { ...found, related }, validUntil: snap.validUntil };
  }

  async publicPosts() {
    return (await this.current()).posts;
  }
}

function toCard(a: ArticleDetail): ArticleCard {
  return { id: a.id, kind: a.kind, title: a.title, description: a.description, source: a.source, publishedAt: a.publishedAt, category: a.category, image: a.image };
}
