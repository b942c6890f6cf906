import { E2E_NEWS_PORT } from '../../playwright.config.ts';
import { sampleNewsArticle, startFakeNewsServer } from '../helpers/fake-news-server.ts';

/**
 * The browser tests' news service: the e2e web server asks it (NEWS_API_URL in playwright.config.ts)
 * and it answers fourteen stories from two sources. Like the real service, it gives some pictures
 * over `https:` and some over plain `http:`, which the server upgrades to `https:` (decision 186): the
 * pages only ever ask for `https:` pictures, which the page policy's `img-src` allows, so no browser
 * test sees a Content-Security-Policy violation. All of them point at this plain-HTTP service, so
 * none loads (the TLS handshake fails) and every card shows how a broken outside picture falls back
 * to the stock one.
 */
export default async function newsGlobalSetup() {
  const news = await startFakeNewsServer({ port: E2E_NEWS_PORT });
  news.setMode({
    kind: 'ok',
    articles: Array.from({ length: 14 }, (_, i) =>
      sampleNewsArticle(i + 1, {
        publishedAt: new Date(Date.UTC(2026, 9, 20, 12) - i * 86_400_000).toISOString(),
        urlToImage: i % 3 === 2 ? null : `${i % 2 ? 'https' : 'http'}://127.0.0.1:${E2E_NEWS_PORT}/pictures/${i + 1}.jpg`,
      }),
    ),
  });
  return async () => {
    await news.close();
  };
}
