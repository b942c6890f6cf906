import { CONTENT_PAGE_PATTERNS } from '../../common/paths.ts';

/**
 * Decision 142: content pages are plain documents, so moving between them is a page load. The
 * browser prerenders a content page as soon as the pointer rests on a link to it (moderate
 * eagerness) and prefetches the HTML of other same-site pages; nothing is fetched for the API or
 * the signed-in areas. Inline, so the script policy allows it like the theme boot script: by the
 * answer's nonce on server-rendered pages, by its hash on pre-rendered ones (decision 170).
 */
const CONTENT = [...CONTENT_PAGE_PATTERNS];

export const SPECULATION_RULES = JSON.stringify({
  prerender: [{ where: { href_matches: CONTENT }, eagerness: 'moderate' }],
  prefetch: [
    {
      where: { and: [{ href_matches: '/*' }, { not: { href_matches: [...CONTENT, '/api/*', '/s/*', '/secured/*', '/account/*', '/newsletter/*', '/*\\?*'] } }] },
      eagerness: 'moderate',
    },
  ],
});
