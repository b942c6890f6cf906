import { company } from '../../../common/content/company.ts';
import { PATHS, PRERENDERED_PATHS } from '../../../common/paths.ts';

// Every public page a search engine should index. Portal and admin paths stay out (robots.txt too).
const SITEMAP_PATHS = [...PRERENDERED_PATHS, PATHS.articles];

/** GET /sitemap.xml */
export function loader() {
  const urls = SITEMAP_PATHS.map((path) => {
    const loc = new URL(path, company.siteUrl).toString();
    const priority = path === PATHS.home ? '1.0' : '0.7';
    return `  <url><loc>${loc}</loc><changefreq>${path === PATHS.articles ? 'daily' : 'monthly'}</changefreq><priority>${priority}</priority></url>`;
  });
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
}
