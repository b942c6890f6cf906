import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { COMPANY_PROFILE_SECTIONS, companyProfilePdf } from './company-profile.service.ts';

/** Whether an If-None-Match header names this (strong) tag: a list, weak forms or `*` (RFC 9110, weak comparison). */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

const companyProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  // Once someone asked for the profile in this process, a publish of what it prints makes the next
  // one at once, so the next visitor does not wait for the render (decision 290).
  // A reload that changes several sections calls the listener once for each, one after another in
  // the same turn: the render waits for the end of that turn, so it is made once, of them all.
  let asked = false;
  let scheduled = false;
  const sections: readonly string[] = COMPANY_PROFILE_SECTIONS;
  const unsubscribe = app.publishedContent.subscribe((section) => {
    if (!asked || scheduled || !sections.includes(section)) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      companyProfilePdf(app.publishedContent).catch((err: unknown) => app.log.error({ err }, 'could not render the company profile'));
    });
  });
  app.addHook('onClose', async () => {
    unsubscribe();
  });

  app.get(
    '/company-profile.pdf',
    {
      config: { access: 'public' },
      schema: {
        tags: ['site'],
        summary: 'The company profile as a PDF, generated from the published site content (About: Download Company Profile)',
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => {
      asked = true;
      const { pdf, etag } = await companyProfilePdf(app.publishedContent);
      // Caches keep it but ask each time: a published change (a new phone number) shows at once.
      reply.header('Cache-Control', 'public, no-cache').header('ETag', etag);
      if (notModified(request.headers['if-none-match'], etag)) return reply.status(304).send();
      return reply.type('application/pdf').header('Content-Disposition', 'attachment; filename="company-profile.pdf"').send(pdf);
    },
  );
};

export default companyProfileRoutes;
