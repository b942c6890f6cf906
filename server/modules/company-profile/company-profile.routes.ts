import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyProfilePdf } from './company-profile.service.ts';

const companyProfileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/company-profile.pdf',
    {
      config: { access: 'public' },
      schema: {
        tags: ['site'],
        summary: 'The company profile as a PDF, generated from the site content (About: Download Company Profile)',
        produces: ['application/pdf'],
      },
    },
    async (_request, reply) => {
      const pdf = await companyProfilePdf();
      return reply
        .type('application/pdf')
        .header('Content-Disposition', 'attachment; filename="company-profile.pdf"')
        .header('Cache-Control', 'public, max-age=3600')
        .send(pdf);
    },
  );
};

export default companyProfileRoutes;
