import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { BLOG_CHANGED_CHANNEL } from '../../events/blog-events.ts';
import { PageCache } from '../../lib/page-cache.ts';
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
  });
  const pageCache = new PageCache();
  service.onInvalidate(() => pageCache.clear());
  app.decorate('articles', service);
  app.decorate('pageCache', pageCache);
  // An event names a post, 'resync' says events may have been missed: either way, read again.
  const unsubscribe = app.events.subscribe(BLOG_CHANGED_CHANNEL, () => service.invalidate());
  app.addHook('onClose', async () => {
    unsubscribe();
    await service.settled();
  });
}

export default fp(articlesPlugin, { name: 'articles', dependencies: ['events'] });
