import type { MetaDescriptor } from 'react-router';
import { company } from '../content/company.ts';

/** Title, description, canonical URL and social-card tags of one page. */
export function pageMeta({ title, description, path, noindex }: { title: string; description: string; path: string; noindex?: boolean }): MetaDescriptor[] {
  const fullTitle = path === '/' ? `${company.name} | ${title}` : `${title} | ${company.shortName}`;
  const url = new URL(path, company.siteUrl).toString();
  const meta: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: company.name },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: new URL('/og-image.png', company.siteUrl).toString() },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
  ];
  if (noindex) meta.push({ name: 'robots', content: 'noindex, nofollow' });
  return meta;
}
