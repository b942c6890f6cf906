import type { MetaDescriptor } from 'react-router';
import type { SectionDocument } from '../../common/content/sections.ts';
import { siteLink } from '../../common/schemas/link-check.ts';

/** The social-card picture (public/og-image.png, drawn by scripts/build-site-images.ts). */
const OG_IMAGE = { path: '/og-image.png', width: 1200, height: 630 } as const;

/** Title, description, canonical URL and social-card tags of one page. */
export function pageMeta(
  company: SectionDocument<'company'>,
  {
  title,
  description,
  path,
  noindex,
  jsonLd,
  type = 'website',
  image,
}: {
  title: string;
  description: string;
  path: string;
  noindex?: boolean;
  /** Structured data (schema.org) for the page, rendered as an inline JSON-LD script. */
  jsonLd?: Record<string, unknown>;
  /** Open Graph type: 'article' for posts. */
  type?: 'website' | 'article';
  /** The page's own social-card picture (absolute URL or site path) instead of the company's card. */
  image?: { url: string; alt: string; width?: number; height?: number };
},
): MetaDescriptor[] {
  const fullTitle = path === '/' ? `${company.name} | ${title}` : `${title} | ${company.shortName}`;
  const url = siteLink(company.siteUrl, path);
  const picture = image
    ? { url: siteLink(company.siteUrl, image.url), alt: image.alt, width: image.width, height: image.height }
    : { url: siteLink(company.siteUrl, OG_IMAGE.path), alt: company.name, width: OG_IMAGE.width, height: OG_IMAGE.height };
  const meta: MetaDescriptor[] = [
    { title: fullTitle },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: type },
    { property: 'og:site_name', content: company.name },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: picture.url },
    ...(picture.width ? [{ property: 'og:image:width', content: String(picture.width) }] : []),
    ...(picture.height ? [{ property: 'og:image:height', content: String(picture.height) }] : []),
    { property: 'og:image:alt', content: picture.alt },
    { property: 'og:locale', content: 'en_NG' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: fullTitle },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: picture.url },
  ];
  if (jsonLd) meta.push({ 'script:ld+json': jsonLd });
  if (noindex) meta.push({ name: 'robots', content: 'noindex, nofollow' });
  return meta;
}
