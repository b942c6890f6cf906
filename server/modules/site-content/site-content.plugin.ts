import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { isSectionKey } from '../../../common/content/sections.ts';
import { PublishedContent } from './published.ts';
import { seedSiteContent } from './site-content.seed.ts';
import { SITE_CONTENT_CHANNEL } from './site-content-events.ts';
import { dropUnsafePublishedLinks } from './unsafe-links.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What visitors see of the website's content, kept current across processes (decision 284). */
    publishedContent: PublishedContent;
  }
}

async function siteContentPlugin(app: FastifyInstance) {
  const published = new PublishedContent(app.db, app.log.child({ module: 'site-content' }), app.config.publicUrl);
  app.decorate('publishedContent', published);
  // An event names the published section; 'resync' says events may have been missed: read all again.
  const unsubscribe = app.events.subscribe(SITE_CONTENT_CHANNEL, (event) => {
    const section = event.kind === 'event' ? (event.payload as { section?: string }).section : undefined;
    void published.reload(section && isSectionKey(section) ? [section] : undefined);
  });
  // The starting content goes in before the first request (decision 283), then this process reads it.
  app.addHook('onReady', async () => {
    await seedSiteContent(app.db, app.clock.now());
    // Decision 300: links stored before the link schemas, or by other means, are taken out first.
    await dropUnsafePublishedLinks(app);
    // Listening before the first read, so no publish falls between the read and the first event.
    await app.events.ready();
    await published.reload();
  });
  app.addHook('onClose', async () => {
    unsubscribe();
  });
}

export default fp(siteContentPlugin, { name: 'site-content', dependencies: ['events'] });
