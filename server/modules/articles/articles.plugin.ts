import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { BLOG_CHANGED_CHANNEL } from '../../events/blog-events.ts';
import { PageCache } from '../../lib/page-cache.ts';
import { publishedCompany } from '../site-content/published-company.ts';
import { ArticlesService } from './articles.service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The public articles (company posts and news) that the /articles pages read. */
    articles: ArticlesService;
    /** Rendered HTML of the articles pages, emptied whenever the articles change. */
    pageCache: PageCache;
  }
}

async function articlesPlugin(app: FastifyInstance) {
  const service = new ArticlesService({
    db: app.db,
    clock: app.clock,
    log: app.log.child({ module: 'articles' }),
    news: { url: app.config.NEWS_API_URL, key: app.config.NEWS_API_KEY, timeoutMs: app.config.NEWS_API_TIMEOUT_MS },
    companyName: () => publishedCompany(app).name,
  });
  const pageCache = new PageCache();
  service.onInvalidate(() => pageCache.clear());
  app.decorate('articles', service);
  app.decorate('pageCache', pageCache);
  // An event names a post, 'resync' says events may have been missed: either way, read again.
  const unsubscribe = app.events.subscribe(BLOG_CHANGED_CHANNEL, () => service.invalidate());
  // A post's source is the published company name: a publish of the company profile reads again.
  // (The site-content plugin registers after this one, so its snapshot is wired once all are loaded.)
  let unsubscribeCompany = () => {};
  app.addHook('onReady', async () => {
    const off = app.publishedContent.subscribe((section) => {
      if (section === 'company') service.invalidate();
    });
    unsubscribeCompany = () => void off();
  });
  app.addHook('onClose', async () => {
    unsubscribe();
    unsubscribeCompany();
    await service.settled();
  });
}

export default fp(articlesPlugin, { name: 'articles', dependencies: ['events'] });
