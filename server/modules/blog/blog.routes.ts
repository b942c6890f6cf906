import { auditOf } from '../audit/audit.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, apiErrorSchema } from '../../../common/errors.ts';
import {
  BLOG_IMAGE_MAX_BYTES,
  BLOG_MESSAGES,
  BLOG_POST_BODY_LIMIT_BYTES,
  blogDeleteResponseSchema,
  blogImageResponseSchema,
  blogListQuerySchema,
  blogListResponseSchema,
  blogPostFieldsSchema,
  blogPostIdParamsSchema,
  blogPostResponseSchema,
  blogPostUpdateSchema,
  blogPreviewResponseSchema,
  blogPreviewSchema,
  blogVisibilitySchema,
} from '../../../common/schemas/blog.ts';
import { sendRendition } from '../../lib/image-renditions.ts';
import { enforceRateLimit, type RateLimitRule } from '../../lib/rate-limit.ts';
import {
  createBlogPost,
  deleteBlogPost,
  findBlogPost,
  listBlogPosts,
  previewContent,
  setBlogPostVisibility,
  updateBlogPost,
} from './blog.service.ts';
import { findBlogImageRendition, uploadBlogImage } from './blog-images.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };
/** Blog image uploads per staff member per hour: a long post's pictures many times over, a ceiling for a runaway script. */
export const BLOG_IMAGE_UPLOAD_RATE_LIMIT: RateLimitRule = { bucket: 'blog-image-upload', limit: 60, windowMs: 60 * 60_000 };

/**
 * Refuses an oversized post by its declared length before a byte is read, with a message that says
 * what to do (Fastify's own body limit still stops a body sent without a length).
 */
async function refuseLargePost<T>(request: FastifyRequest, _reply: unknown, payload: T): Promise<T> {
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > BLOG_POST_BODY_LIMIT_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', BLOG_MESSAGES.bodyTooLarge);
  return payload;
}

const blogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/blog/posts',
    {
      config: { access: { staff: 'blog.write' } },
      schema: {
        tags: ['blog'],
        summary: 'Staff list of blog posts (every status), newest change first, optionally searched by title',
        querystring: blogListQuerySchema,
        response: { 200: blogListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await listBlogPosts(app, request.query)) }),
  );

  app.get(
    '/blog/posts/:id',
    {
      config: { access: { staff: 'blog.write' } },
      schema: {
        tags: ['blog'],
        summary: 'One blog post with its content, for the edit form',
        params: blogPostIdParamsSchema,
        response: { 200: blogPostResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, post: await findBlogPost(app, request.params.id) }),
  );

  app.post(
    '/blog/posts',
    {
      config: { access: { staff: 'blog.write' } },
      bodyLimit: BLOG_POST_BODY_LIMIT_BYTES,
      preParsing: refuseLargePost,
      schema: {
        tags: ['blog'],
        summary: 'Create a blog post (content sanitised with the allowlist; slug from the title, suffixed on a clash)',
        body: blogPostFieldsSchema,
        response: { 201: blogPostResponseSchema, 413: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => reply.status(201).send({ success: true as const, post: await createBlogPost(app, request.user!, request.body, auditOf(request)) }),
  );

  app.put(
    '/blog/posts/:id',
    {
      config: { access: { staff: 'blog.write' } },
      bodyLimit: BLOG_POST_BODY_LIMIT_BYTES,
      preParsing: refuseLargePost,
      schema: {
        tags: ['blog'],
        summary: 'Save an edit made from `version`; 409 if someone else saved in between',
        params: blogPostIdParamsSchema,
        body: blogPostUpdateSchema,
        response: { 200: blogPostResponseSchema, 409: apiErrorSchema, 413: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, post: await updateBlogPost(app, request.user!, request.params.id, request.body, auditOf(request)) }),
  );

  app.put(
    '/blog/posts/:id/visibility',
    {
      config: { access: { staff: 'blog.write' } },
      schema: {
        tags: ['blog'],
        summary: "Show or hide a post (the list's toggle)",
        params: blogPostIdParamsSchema,
        body: blogVisibilitySchema,
        response: { 200: blogPostResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      post: await setBlogPostVisibility(app, request.user!, request.params.id, request.body.visibility, auditOf(request)),
    }),
  );

  app.delete(
    '/blog/posts/:id',
    {
      config: { access: { staff: 'blog.write' } },
      schema: {
        tags: ['blog'],
        summary: 'Delete a blog post for good',
        params: blogPostIdParamsSchema,
        response: { 200: blogDeleteResponseSchema, ...errors },
      },
    },
    async (request) => {
      await deleteBlogPost(app, request.params.id, auditOf(request));
      return { success: true as const, message: BLOG_MESSAGES.deleted.description };
    },
  );

  app.post(
    '/blog/preview',
    {
      config: { access: { staff: 'blog.write' } },
      bodyLimit: BLOG_POST_BODY_LIMIT_BYTES,
      preParsing: refuseLargePost,
      schema: {
        tags: ['blog'],
        summary: "A post's content as the public page will show it (sanitised with the allowlist); nothing is stored",
        body: blogPreviewSchema,
        response: { 200: blogPreviewResponseSchema, 413: apiErrorSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, html: previewContent(request.body.content) }),
  );

  app.post(
    '/blog/images',
    {
      config: { access: { staff: 'blog.write' } },
      // Counted before a byte of the file is read: a refused upload costs nothing.
      preParsing: async (request, reply, payload) => {
        await enforceRateLimit(app, reply, BLOG_IMAGE_UPLOAD_RATE_LIMIT, request.user!._id, BLOG_MESSAGES.uploadsRateLimited);
        return payload;
      },
      schema: {
        tags: ['blog'],
        summary: 'Upload a banner or an image for the text (multipart field "file"): checked by its bytes, stored as AVIF/WebP renditions',
        consumes: ['multipart/form-data'],
        response: { 201: blogImageResponseSchema, 413: apiErrorSchema, 415: apiErrorSchema, 429: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data in the field "file"');
      const image = await uploadBlogImage(app, request.user!, request.parts({ limits: { fileSize: BLOG_IMAGE_MAX_BYTES, files: 1 } }));
      return reply.status(201).send({ success: true as const, image });
    },
  );

  app.get(
    '/blog/images/:imageId/:file',
    {
      config: { access: 'public' },
      schema: {
        tags: ['blog'],
        summary: 'A rendition of a blog image: {480|960|1600}.{avif|webp} (public, cached for a year)',
        params: z.object({ imageId: z.string().max(100), file: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const rendition = await findBlogImageRendition(app, request.params.imageId, request.params.file);
      return sendRendition(app, reply, rendition);
    },
  );
};

export default blogRoutes;
