import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { CSP_NONCE_CONTEXT_KEY } from '../../common/csp-nonce.ts';
import { type NEWSLETTER_FORM_CONTEXT_KEY, type NewsletterFormAnswer } from '../../common/newsletter.ts';
import { ARTICLES_CONTEXT_KEY, type ArticlesReader } from '../../common/schemas/articles.ts';
import { SETUP_CONTEXT_KEY, type SetupReader } from '../../common/schemas/setup.ts';
import { SITE_CONTENT_CONTEXT_KEY, type SiteContentReader } from '../../common/site-content-context.ts';
import { setupReader } from '../modules/setup/setup.service.ts';

/** What a route outside the web plugin may add to a page's load context (decision 176). */
export type PageContextExtras = {
  [NEWSLETTER_FORM_CONTEXT_KEY]?: NewsletterFormAnswer;
  /** A preview's content (decision 289); the published snapshot when left out. */
  [SITE_CONTENT_CONTEXT_KEY]?: SiteContentReader;
};

/**
 * Everything a page's loader may read from the server, the same for every page the server renders
 * (a request, the cached not-found document, route discovery, a page answering a form post, the
 * development server). The logger is always a real one: a stand-in with only some of its methods
 * broke the not-found page twice when a loader called another.
 */
export type PageLoadContext = PageContextExtras & {
  logger: FastifyBaseLogger;
  [ARTICLES_CONTEXT_KEY]: ArticlesReader;
  [SETUP_CONTEXT_KEY]: SetupReader;
  /** Decision 170: the nonce this answer's inline scripts carry (none for a page kept in the site page cache). */
  [CSP_NONCE_CONTEXT_KEY]: string | undefined;
  /** Decision 289: the website's content the page shows. */
  [SITE_CONTENT_CONTEXT_KEY]: SiteContentReader;
};

/** Builds the load context of the pages of `app`; call it once per web plugin. */
export function pageLoadContextOf(app: FastifyInstance) {
  const setup = setupReader(app);
  return (logger: FastifyBaseLogger, nonce: string | undefined, extras: PageContextExtras = {}): PageLoadContext => ({
    ...extras,
    [SITE_CONTENT_CONTEXT_KEY]: extras[SITE_CONTENT_CONTEXT_KEY] ?? app.publishedContent,
    logger,
    [ARTICLES_CONTEXT_KEY]: app.articles,
    [SETUP_CONTEXT_KEY]: setup,
    [CSP_NONCE_CONTEXT_KEY]: nonce,
  });
}

/** The load context builder a web plugin hands around (see pageLoadContextOf). */
export type PageLoadContextBuilder = ReturnType<typeof pageLoadContextOf>;
