import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../../common/errors.ts';
import { STORED_FILE_POLICY } from '../../plugins/security-headers.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { findFileForViewer } from './files.service.ts';

// A file never changes under its id, so the browser may keep it; only the signed-in user's cache may.
// Signed-in files must not outlive the session in a shared browser (decision 114).
const FILE_CACHE_CONTROL = 'private, no-store';

const fileParamsSchema = z.object({ id: z.uuid() });
const fileQuerySchema = z.object({
  /** Ask for a download (Content-Disposition: attachment) instead of showing it in the page. */
  download: z.enum(['1', 'true']).optional(),
});

/** One byte range of a `Range` header, or null to send the whole file (RFC 9110 section 14). */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: sending the whole file is allowed, and simpler than multipart/byteranges.
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The stored bytes; a row whose bytes are gone answers 404 (and is logged), not 500. */
  async function openStored(key: string, range?: { start: number; end: number }) {
    try {
      return await app.storage.get(key, range);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      app.log.error({ key }, 'attachment bytes missing from storage');
      throw notFound('File not found');
    }
  }

  app.get(
    '/files/:id',
    {
      config: { access: { staff: 'projects.read', client: true } },
      // Compressing would break byte ranges, and images and videos are compressed already.
      compress: false,
      schema: {
        tags: ['messages'],
        summary: 'An attachment, for the people who may see its message (byte ranges for video)',
        params: fileParamsSchema,
        querystring: fileQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await findFileForViewer(app, request.user!, request.params.id);
      const etag = `"${file.id}"`;
      const showInline = !request.query.download && (file.kind === 'image' || file.kind === 'video');
      reply
        .header('Content-Type', file.mimeType === 'text/plain' ? 'text/plain; charset=utf-8' : file.mimeType)
        .header('Content-Disposition', contentDisposition(showInline ? 'inline' : 'attachment', file.name))
        .header('Cache-Control', FILE_CACHE_CONTROL)
        .header('ETag', etag)
        .header('Accept-Ranges', 'bytes')
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        // Even opened directly, a file can run nothing.
        .header('Content-Security-Policy', STORED_FILE_POLICY);
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const range = parseRange(request.headers.range, file.size);
      if (range === 'unsatisfiable') {
        return reply
          .status(416)
          .type('application/json; charset=utf-8')
          .removeHeader('Content-Disposition')
          .header('Content-Range', `bytes */${file.size}`)
          .send({ success: false as const, code: 'BAD_REQUEST' as const, message: 'The requested range is outside the file' });
      }
      if (range) {
        const stream = await openStored(file.storageKey, range);
        return reply
          .status(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
          .header('Content-Length', range.end - range.start + 1)
          .send(stream);
      }
      const stream = await openStored(file.storageKey);
      return reply.header('Content-Length', file.size).send(stream);
    },
  );
};

export default filesRoutes;
