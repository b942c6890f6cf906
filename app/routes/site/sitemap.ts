import type { Route } from './+types/sitemap';
import { PATHS, SITE_PAGE_PATHS } from '../../../common/paths.ts';
import { articlesReaderFrom } from '../../features/articles/articles-context.ts';
import { siteContentFrom } from '../../lib/site-content.ts';
import { siteLink } from '../../../common/schemas/link-check.ts';

// Every public page a search engine should index. Portal and admin paths stay out (robots.txt too).
const SITEMAP_PATHS = [...SITE_PAGE_PATHS, PATHS.articles];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GET /sitemap.xml: the site's pages and the company's public posts (never drafts, hidden or future posts, nor news). */
export async function loader({ context }: Route.LoaderArgs) {
  // Decision 289: the site's address as published now.
  const company = siteContentFrom(context).get('company');
  const urls = SITEMAP_PATHS.map((path) => {
    const loc = siteLink(company.siteUrl, path);
    const priority = path === PATHS.home ? '1.0' : '0.7';
    return `  <url><loc>${escapeXml(loc)}</loc><changefreq>${path === PATHS.articles ? 'daily' : 'monthly'}</changefreq><priority>${priority}</priority></url>`;
  });
  for (const post of await articlesReaderFrom(context).publicPosts()) {
    const loc = siteLink(company.siteUrl, PATHS.article(post.id));
    const lastmod = (post.updatedAt ?? post.publishedAt).slice(0, 10);
    urls.push(`  <url><loc>${escapeXml(loc)}</loc><lastmod>${lastmod}</lastmod><changefreq>monthly</changefreq><priority>0.6</priority></url>`);
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
