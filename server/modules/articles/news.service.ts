import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import { newsCache } from '../../db/schema/news.ts';
import { sanitizeArticleHtml } from '../../lib/article-html.ts';
import { withoutDisguisingCharacters } from '../../../common/schemas/single-line.ts';
import {
  NEWS_CACHE_TTL_MS,
  NEWS_QUERY,
  NEWS_RESPONSE_MAX_BYTES,
  NEWS_RETRY_AFTER_MS,
  newsArticleId,
  type NewsArticle,
} from '../../../common/schemas/articles.ts';

/** The row of the one query the site asks. */
export const NEWS_CACHE_KEY = 'everything';
const TITLE_MAX = 500;
const TEXT_MAX = 20_000;
const URL_MAX = 2_000;

export interface NewsSettings {
  /** The everything-search endpoint (NEWS_API_URL). */
  url: string;
  /** NEWS_API_KEY; without it the service is never asked. */
  key: string | undefined;
  timeoutMs: number;
  maxBytes?: number;
}

class NewsFetchError extends Error {}

// The service's answer, read leniently: a bad article is dropped, not the whole answer.
const answerSchema = z.object({ status: z.string().optional(), articles: z.array(z.unknown()) });
const articleSchema = z.object({
  title: z.string().trim().min(1),
  description: z.string().nullish(),
  content: z.string().nullish(),
  url: z.string().max(URL_MAX),
  urlToImage: z.string().max(URL_MAX).nullish(),
  publishedAt: z.string(),
  source: z.object({ name: z.string().nullish() }).nullish(),
});

function httpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * The address our pages ask for an outside picture at: an `http:` one is upgraded to `https:`.
 * The page policy's `img-src` allows outside pictures over `https:` only (decision 186), and on our
 * https site every current browser upgrades an http picture anyway (mixed content); upgrading it
 * here makes every page, on any host and in any browser, ask for what production asks for. A host
 * without https then fails to answer and the card shows its stock picture, as for any broken one.
 */
export function pictureAddress(value: string): string {
  return value.startsWith('http:') ? `https:${value.slice('http:'.length)}` : value;
}

/** Outside HTML through the specification's allowlist; a 'relative:' exploit drops the field. */
function sanitizedOrNull(html: string | null | undefined): string | null {
  if (!html) return null;
  try {
    const clean = sanitizeArticleHtml(html.slice(0, TEXT_MAX)).trim();
    return clean || null;
  } catch {
    return null;
  }
}

/** The service's JSON made into our articles: checked, sanitised, with the specification's id. */
function normaliseNewsAnswer(json: unknown): NewsArticle[] {
  const answer = answerSchema.safeParse(json);
  if (!answer.success) throw new NewsFetchError('The news answer has no articles list');
  if (answer.data.status && answer.data.status !== 'ok') throw new NewsFetchError(`The news service answered status ${answer.data.status}`);
  const seen = new Set<string>();
  const out: NewsArticle[] = [];
  for (const raw of answer.data.articles) {
    const parsed = articleSchema.safeParse(raw);
    if (!parsed.success) continue;
    const a = parsed.data;
    // An outside title cannot be refused like a typed one: what would disguise it is removed (decision 195).
    const title = withoutDisguisingCharacters(a.title);
    const url = httpUrl(a.url);
    const published = new Date(a.publishedAt);
    // The service marks withdrawn stories '[Removed]'.
    if (!title || !url || Number.isNaN(published.getTime()) || title === '[Removed]') continue;
    const id = newsArticleId(url);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      id,
      title: title.slice(0, TITLE_MAX),
      description: sanitizedOrNull(a.description),
      content: sanitizedOrNull(a.content),
      url,
      urlToImage: httpUrl(a.urlToImage),
      publishedAt: published.toISOString(),
      source: { name: withoutDisguisingCharacters(a.source?.name ?? '').slice(0, 200) || null },
    });
  }
  return out;
}

/** Reads a body, refusing it once it passes `maxBytes`. */
async function readLimited(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new NewsFetchError(`The news answer is too large (${declared} bytes)`);
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new NewsFetchError(`The news answer is too large (over ${maxBytes} bytes)`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One call of the everything-search endpoint with the specification's query; throws NewsFetchError. */
async function fetchNewsArticles(settings: NewsSettings): Promise<NewsArticle[]> {
  if (!settings.key) throw new NewsFetchError('NEWS_API_KEY is not set');
  const url = new URL(settings.url);
  for (const [name, value] of Object.entries(NEWS_QUERY)) url.searchParams.set(name, value);
  const signal = AbortSignal.timeout(settings.timeoutMs);
  try {
    // The key travels in a header, so it never appears in a URL that a proxy or log might keep.
    const response = await fetch(url, { headers: { 'X-Api-Key': settings.key, Accept: 'application/json' }, signal, redirect: 'error' });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new NewsFetchError(`The news service answered HTTP ${response.status}`);
    }
    const text = await readLimited(response, settings.maxBytes ?? NEWS_RESPONSE_MAX_BYTES);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new NewsFetchError('The news answer is not JSON');
    }
    return normaliseNewsAnswer(json);
  } catch (err) {
    if (err instanceof NewsFetchError) throw err;
    if (signal.aborted) throw new NewsFetchError(`The news service did not answer within ${settings.timeoutMs} ms`);
    throw new NewsFetchError(`The news service could not be reached: ${(err as Error).message}`);
  }
}

export interface NewsCacheRow {
  articles: NewsArticle[];
  fetchedAt: Date | null;
  expiresAt: Date;
  nextAttemptAt: Date;
  lastError: string | null;
}

/** The cached answer (possibly expired), or null before the first attempt. */
export async function readNewsCache(db: Db): Promise<NewsCacheRow | null> {
  const [row] = await db.select().from(newsCache).where(eq(newsCache.key, NEWS_CACHE_KEY));
  return row ?? null;
}

export type RefreshOutcome = 'fetched' | 'fresh' | 'failed';

/**
 * Refreshes the cached answer if it is due. Across processes one at a time: the transaction holds an
 * advisory lock, and a process that waited for it finds the answer fresh and asks nobody. A failure
 * keeps the articles, records the error and backs off NEWS_RETRY_AFTER_MS.
 */
export async function refreshNewsCache(deps: { db: Db; clock: Clock; log: FastifyBaseLogger; settings: NewsSettings }): Promise<RefreshOutcome> {
  const { db, clock, log, settings } = deps;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('news_cache:everything'))`);
    const [row] = await tx.select().from(newsCache).where(eq(newsCache.key, NEWS_CACHE_KEY));
    const now = clock.now();
    if (row && row.nextAttemptAt > now) return 'fresh';
    try {
      const articles = await fetchNewsArticles(settings);
      const expiresAt = new Date(now.getTime() + NEWS_CACHE_TTL_MS);
      const values = { articles, fetchedAt: now, expiresAt, nextAttemptAt: expiresAt, lastError: null, lastAttemptAt: now };
      await tx
        .insert(newsCache)
        .values({ key: NEWS_CACHE_KEY, ...values })
        .onConflictDoUpdate({ target: newsCache.key, set: values });
      log.info({ articles: articles.length }, 'news refreshed');
      return 'fetched';
    } catch (err) {
      const message = (err as Error).message.slice(0, 500);
      log.warn({ err: message }, 'news refresh failed; serving the last good copy');
      const nextAttemptAt = new Date(now.getTime() + NEWS_RETRY_AFTER_MS);
      await tx
        .insert(newsCache)
        .values({ key: NEWS_CACHE_KEY, articles: [], fetchedAt: null, expiresAt: now, nextAttemptAt, lastError: message, lastAttemptAt: now })
        .onConflictDoUpdate({ target: newsCache.key, set: { nextAttemptAt, lastError: message, lastAttemptAt: now } });
      return 'failed';
    }
  });
}
