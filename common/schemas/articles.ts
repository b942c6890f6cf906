// The public articles pages (/articles, /articles/{id}): the company's blog posts and industry news
// read together. Shared by the server (which builds these shapes) and the pages (which render them).

/** The news service's query (specification sections 7 and 9). */
export const NEWS_QUERY = {
  q: 'construction OR engineering',
  sortBy: 'publishedAt',
  language: 'en',
  pageSize: '50',
} as const;

/** How long a fetched news answer is served before it is refreshed. */
export const NEWS_CACHE_TTL_MS = 30 * 60 * 1000;
/** After a failed refresh, the service is not asked again for this long (the old copy is served). */
export const NEWS_RETRY_AFTER_MS = 60 * 1000;
/** A news answer larger than this is refused (50 articles are about 100 KB). */
export const NEWS_RESPONSE_MAX_BYTES = 2 * 1024 * 1024;
/** Cards per page of /articles (company posts and news together). */
export const ARTICLES_PAGE_SIZE = 12;
/** 'More from {source}' lists at most this many (specification section 9). */
export const RELATED_ARTICLES_MAX = 3;

/** The specification's texts of the articles pages. */
export const ARTICLES_TEXT = {
  heroTitle: 'Articles',
  heroSubtitle: 'Latest updates from industry publications',
  cardSourceFallback: 'Articles',
  detailSourceFallback: 'News',
  descriptionFallback: 'Read more about this story...',
  readMore: 'Read More',
  empty: 'No articles found.',
  tryAgain: 'Try Again',
  retry: 'Retry',
  fetchFailed: 'Failed to fetch articles',
  loadFailed: 'Failed to load articles',
  notFound: 'Article not found',
  articleFailed: 'Failed to load article',
  backToNews: 'Back to News',
  originalSourceFallback: 'source website',
} as const;

/** The three stock pictures used where an article has no picture or its picture fails (by card index). */
export const ARTICLE_FALLBACK_IMAGES = [
  '/images/articles/fallback-1.svg',
  '/images/articles/fallback-2.svg',
  '/images/articles/fallback-3.svg',
] as const;
/** The one stock picture of the detail page. */
export const ARTICLE_DETAIL_FALLBACK_IMAGE = ARTICLE_FALLBACK_IMAGES[0];

/** The fallback picture of the card at `index` (0-based). */
export function fallbackImageFor(index: number): string {
  return ARTICLE_FALLBACK_IMAGES[Math.abs(index) % ARTICLE_FALLBACK_IMAGES.length];
}

/** The specification's id of a news article: its url with every non-alphanumeric character replaced by a hyphen. */
export function newsArticleId(url: string): string {
  return url.replace(/[^a-zA-Z0-9]/g, '-');
}

/** One article of the news service, normalised and sanitised by the server. */
export interface NewsArticle {
  id: string;
  title: string;
  /** Sanitised HTML, or null. */
  description: string | null;
  /** Sanitised HTML, or null. */
  content: string | null;
  url: string;
  urlToImage: string | null;
  /** ISO time. */
  publishedAt: string;
  source: { name: string | null };
}

/** A picture of an article: our own responsive renditions, or an outside address. */
export type ArticleImage =
  | { kind: 'own'; avifSrcSet: string; webpSrcSet: string; src: string; width: number; height: number }
  | { kind: 'remote'; src: string }
  | null;

/** What a card on /articles shows. */
export interface ArticleCard {
  /** The address segment of /articles/{id}: a post's slug or a news article's id. */
  id: string;
  kind: 'post' | 'news';
  title: string;
  /** Plain text (tags stripped), or null. */
  description: string | null;
  /** The source name (the company's name for its posts), or null. */
  source: string | null;
  /** ISO time of publication. */
  publishedAt: string;
  /** Company posts only. */
  category: string | null;
  image: ArticleImage;
}

/** What /articles/{id} shows. */
export interface ArticleDetail extends ArticleCard {
  /** Sanitised HTML (content, or description when there is no content). */
  bodyHtml: string;
  /** News only: the original article. */
  url: string | null;
  author: string | null;
  /** ISO time of the last change (company posts). */
  updatedAt: string | null;
  related: ArticleCard[];
}

/** One page of /articles. */
export interface ArticlesPage {
  items: ArticleCard[];
  page: number;
  pages: number;
  total: number;
  category: string | null;
  /** Why news is missing while it should be there (the key is set but nothing could be fetched), or null. */
  newsError: string | null;
}

/** What a page of articles or one article can be asked for by the pages' loaders (the load context). */
export interface ArticlesReader {
  listPage(input: { page: number; category: string | null }): Promise<{ data: ArticlesPage; validUntil: Date }>;
  findArticle(id: string): Promise<{ data: ArticleDetail | null; validUntil: Date }>;
  /** The company's public posts, newest first (feed and sitemap). */
  publicPosts(): Promise<ArticleDetail[]>;
}

/** The response header by which a server-rendered page says until when its HTML may be reused (server/lib/page-cache.ts). */
export const PAGE_CACHE_UNTIL_HEADER = 'x-page-cache-until';

/** The load-context key under which the server hands the reader to the pages. */
export const ARTICLES_CONTEXT_KEY = 'articles';

