import type { Route } from './+types/articles-rss';
import { ARTICLES_TEXT } from '../../../common/schemas/articles.ts';
import { PATHS } from '../../../common/paths.ts';
import { articlesReaderFrom } from '../../features/articles/articles-context.ts';
import { siteContentFrom } from '../../lib/site-content.ts';
import { siteLink } from '../../../common/schemas/link-check.ts';

// The feed lists the newest posts; readers keep older ones themselves.
const FEED_ITEMS_MAX = 50;

/** GET /articles/rss.xml: RSS 2.0 feed of the company's public posts (never news, drafts, hidden or future posts). */
export async function loader({ context }: Route.LoaderArgs) {
  // The feed writer (with its XML library) loads with the first feed asked for, not with the server (decision 301).
  const { Feed } = await import('feed');
  const company = siteContentFrom(context).get('company');
  const posts = (await articlesReaderFrom(context).publicPosts()).slice(0, FEED_ITEMS_MAX);
  const at = (path: string) => siteLink(company.siteUrl, path);
  const feed = new Feed({
    title: `${company.name}: ${ARTICLES_TEXT.heroTitle}`,
    description: `News and articles from ${company.name}`,
    id: at(PATHS.articles),
    link: at(PATHS.articles),
    language: 'en',
    favicon: at('/favicon.svg'),
    copyright: `© ${company.name}`,
    updated: posts.length ? new Date(posts[0].updatedAt ?? posts[0].publishedAt) : undefined,
    feedLinks: { rss: at('/articles/rss.xml') },
  });
  for (const post of posts) {
    const link = at(PATHS.article(post.id));
    feed.addItem({
      title: post.title,
      id: link,
      link,
      description: post.description ?? undefined,
      content: post.bodyHtml,
      author: post.author ? [{ name: post.author }] : undefined,
      date: new Date(post.publishedAt),
      category: post.category ? [{ name: post.category }] : undefined,
    });
  }
  return new Response(feed.rss2(), {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' },
  });
}
