import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, apiErrorSchema } from '../../../common/errors.ts';
import {
  MEDIA_MAX_BYTES,
  mediaDeleteResponseSchema,
  mediaIdParamsSchema,
  mediaItemResponseSchema,
  mediaListQuerySchema,
  mediaListResponseSchema,
  mediaUpdateSchema,
} from '../../../common/schemas/media.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { sendRendition } from '../../lib/image-renditions.ts';
import { STORED_FILE_POLICY } from '../../plugins/security-headers.ts';
import { enforceRateLimit, type RateLimitRule } from '../../lib/rate-limit.ts';
import { auditOf } from '../audit/audit.ts';
import {
  deleteMedia,
  findMediaPdf,
  findMediaVariant,
  getMedia,
  isPdfFile,
  listMedia,
  updateMedia,
  uploadMedia,
} from './media.service.ts';

// The media library (issue 24, decision 286): owners, admins and editors upload, describe and remove
// the site's images; the renditions are public.

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
const CONTENT = { staff: 'content.write' } as const;
/** Uploads per staff member per hour: a whole gallery at once, a ceiling for a runaway script. */
const MEDIA_UPLOAD_RATE_LIMIT: RateLimitRule = { bucket: 'media-upload', limit: 120, windowMs: 60 * 60_000 };

const mediaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/media',
    {
      config: { access: CONTENT },
      schema: {
        tags: ['media'],
        summary: 'The media library, newest first, each image with the places it is used',
        querystring: mediaListQuerySchema,
        response: { 200: mediaListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listMedia(app, request.query)) }),
  );

  app.get(
    '/media/:id',
    {
      config: { access: CONTENT },
      schema: {
        tags: ['media'],
        summary: 'One image with the places it is used',
        params: mediaIdParamsSchema,
        response: { 200: mediaItemResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, item: await getMedia(app, request.params.id) }),
  );

  app.post(
    '/media',
    {
      config: { access: CONTENT },
      // Counted before a byte of the file is read: a refused upload costs nothing.
      preParsing: async (request, reply, payload) => {
        await enforceRateLimit(app, reply, MEDIA_UPLOAD_RATE_LIMIT, request.user!._id, (wait) => `Too many uploads. Please try again in ${wait}.`);
        return payload;
      },
      schema: {
        tags: ['media'],
        summary:
          'Upload an image or a PDF (multipart fields "altText", optional "kind" image|pdf, "file"): JPEG, PNG, WebP or AVIF by its bytes, stored as AVIF/WebP renditions; a PDF (%PDF-) kept as uploaded',
        consumes: ['multipart/form-data'],
        response: { 201: mediaItemResponseSchema, 413: apiErrorSchema, 415: apiErrorSchema, 429: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data: "altText", then "file"');
      const item = await uploadMedia(app, auditOf(request), request.parts({ limits: { fileSize: MEDIA_MAX_BYTES, files: 1 } }));
      return reply.status(201).send({ success: true as const, item });
    },
  );

  app.patch(
    '/media/:id',
    {
      config: { access: CONTENT },
      schema: {
        tags: ['media'],
        summary: "Change an image's alt text or focal point",
        params: mediaIdParamsSchema,
        body: mediaUpdateSchema,
        response: { 200: mediaItemResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, item: await updateMedia(app, auditOf(request), request.params.id, request.body) }),
  );

  app.delete(
    '/media/:id',
    {
      config: { access: CONTENT },
      schema: {
        tags: ['media'],
        summary: 'Delete an image no page uses (409 naming where it is used otherwise), with its renditions',
        params: mediaIdParamsSchema,
        response: { 200: mediaDeleteResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      await deleteMedia(app, auditOf(request), request.params.id);
      return { success: true as const, deleted: true as const };
    },
  );

  app.get(
    '/media/:id/:file',
    {
      config: { access: 'public' },
      schema: {
        tags: ['media'],
        summary:
          'A rendition of an image: {width}.{avif|webp}, or a PDF item as uploaded: document.pdf (public, cached for a year)',
        params: z.object({ id: z.string().max(100), file: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const { id, file } = request.params;
      if (!isPdfFile(file)) return sendRendition(app, reply, await findMediaVariant(app, id, file));
      // Decision 295: a download under the uploader's name (cleaned), its own type and never sniffed,
      // and nothing it could carry runs on our origin.
      const pdf = await findMediaPdf(app, id);
      reply
        .type('application/pdf')
        .header('Content-Length', String(pdf.size))
        .header('Content-Disposition', contentDisposition('attachment', pdf.name))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', STORED_FILE_POLICY)
        .header('Cache-Control', 'public, max-age=31536000, immutable');
      return reply.send(await app.storage.get(pdf.key));
    },
  );
};

export default mediaRoutes;
