import { E2E_NEWS_PORT } from '../../playwright.config.ts';
import { sampleNewsArticle, startFakeNewsServer } from '../helpers/fake-news-server.ts';

/**
 * The browser tests' news service: the e2e web server asks it (NEWS_API_URL in playwright.config.ts)
 * and it answers fourteen stories from two sources. Their pictures are plain-HTTP addresses that the
 * Content-Security-Policy refuses (and that answer 404), so every
 * card shows how a broken outside picture falls back to the stock one.
 */
export default async function newsGlobalSetup() {
  const news = await startFakeNewsServer({ port: E2E_NEWS_PORT });
  news.setMode({
    kind: 'ok',
    articles: Array.from({ length: 14 }, (_, i) =>
      sampleNewsArticle(i + 1, {
        publishedAt: new Date(Date.UTC(2026, 9, 20, 12) - i * 86_400_000).toISOString(),
        urlToImage: i % 3 === 2 ? null : `http://127.0.0.1:${E2E_NEWS_PORT}/pictures/${i + 1}.jpg`,
      }),
    ),
  });
  return async () => {
    await news.close();
  };
}
