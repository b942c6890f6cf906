import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../common/errors.ts';
import { SECTION_TITLES, type SectionDocument, type SectionKey } from '../../../common/content/sections.ts';
import { SITE_PAGE_PATHS } from '../../../common/paths.ts';
import { sectionParamsSchema } from '../../../common/schemas/site-content.ts';
import { mediaReferencesIn, SECTION_PREVIEW_PAGES, SITE_CONTENT_CONTEXT_KEY, type SiteContentReader } from '../../../common/site-content-context.ts';
import { mediaPicturesOf } from './published.ts';
import { getSection } from './site-content.service.ts';

const querySchema = z.object({
  path: z.enum(SITE_PAGE_PATHS, { message: `path must be one of the site's pages: ${SITE_PAGE_PATHS.join(', ')}` }).optional(),
});

/**
 * Decision 289: GET /preview/:section?path=/contact renders the real page, by the same code as the
 * public one, with the section's draft in place of its published document and a banner saying so.
 * For staff who edit the website only; never kept in any cache, never indexed.
 */
const siteContentPreviewRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/preview/:section',
    {
      config: { access: { staff: 'content.write' } },
      schema: { hide: true, params: sectionParamsSchema, querystring: querySchema },
    },
    async (request, reply) => {
      const section = request.params.section as SectionKey;
      const path = request.query.path ?? SECTION_PREVIEW_PAGES[section];
      const { draft } = await getSection(app.db, section);
      const published = app.publishedContent;
      const draftMedia = await mediaPicturesOf(app.db, mediaReferencesIn(draft.document));
      const reader: SiteContentReader = {
        get: <K extends SectionKey>(key: K) => (key === section ? (draft.document as SectionDocument<K>) : published.get(key)),
        media: () => ({ ...published.media(), ...Object.fromEntries(draftMedia) }),
        preview: { section, title: SECTION_TITLES[section] },
      };
      reply.header('Cache-Control', 'no-store');
      reply.header('X-Robots-Tag', 'noindex, nofollow');
      if (app.webPages.render && (await app.webPages.render(request, reply, { path, context: { [SITE_CONTENT_CONTEXT_KEY]: reader }, status: 200 }))) return reply;
      throw new AppError('SERVICE_UNAVAILABLE', 'This server does not serve the web pages, so it cannot show a preview');
    },
  );
};

export default siteContentPreviewRoutes;
