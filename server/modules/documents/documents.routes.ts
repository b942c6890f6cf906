import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema, notFound } from '../../../common/errors.ts';
import {
  DOCUMENT_MAX_BYTES,
  documentDownloadQuerySchema,
  documentListResponseSchema,
  documentParamsSchema,
  documentProjectParamsSchema,
  documentResponseSchema,
  documentVersionParamsSchema,
  updateDocumentBodySchema,
} from '../../../common/schemas/documents.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { STORED_FILE_POLICY } from '../../plugins/security-headers.ts';
import { auditOf } from '../audit/audit.ts';
import { updateProjectDocument } from './document-changes.service.ts';
import { addDocumentVersion, createProjectDocument } from './document-uploads.service.ts';
import { findDocumentVersionFile, listProjectDocuments } from './documents.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema };
const uploadErrors = { ...errors, 413: apiErrorSchema, 415: apiErrorSchema };
// Signed-in files must not outlive the session in a shared browser (decision 114).
const FILE_CACHE_CONTROL = 'private, no-store';
/**
 * A PDF shown in the browser: nothing may load or run beside the viewer. Without `sandbox`, which
 * Chromium's PDF viewer refuses to run under (it shows "blocked"); the bytes are a PDF by their
 * signature and go out as application/pdf with nosniff, so no page of ours can be made of them.
 */
const PDF_PREVIEW_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'";
// One multipart part is the file; a handful of fields come before it.
const UPLOAD_LIMITS = { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 10, parts: 11 };

const documentsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Document mails are delivered after the answer is sent; closing the app waits for those in flight.
  const later = afterAnswer(app);

  app.get(
    '/projects/:projectId/documents',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['documents'],
        summary: "A project's document register: each document's current version and its superseded ones (clients: the documents shown to them)",
        params: documentProjectParamsSchema,
        response: { 200: documentListResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, documents: await listProjectDocuments(app, request.user!, request.params.projectId) }),
  );

  app.post(
    '/projects/:projectId/documents',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['documents'],
        summary: 'Add a document (multipart: title, category, label, visibleToClient, then the "file", up to 100 MB)',
        consumes: ['multipart/form-data'],
        params: documentProjectParamsSchema,
        response: { 201: documentResponseSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const parts = () => {
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the document as multipart/form-data');
        return request.parts({ limits: UPLOAD_LIMITS });
      };
      const document = await createProjectDocument(app, later, request.user!, request.params.projectId, parts, auditOf(request));
      return reply.status(201).send({ success: true as const, document });
    },
  );

  app.post(
    '/projects/:projectId/documents/:documentId/versions',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['documents'],
        summary: 'Upload a new version of a document (multipart: optional label, then the "file"); the previous one is superseded',
        consumes: ['multipart/form-data'],
        params: documentParamsSchema,
        response: { 201: documentResponseSchema, ...uploadErrors },
      },
    },
    async (request, reply) => {
      const parts = () => {
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the version as multipart/form-data');
        return request.parts({ limits: UPLOAD_LIMITS });
      };
      const { projectId, documentId } = request.params;
      const document = await addDocumentVersion(app, later, request.user!, projectId, documentId, parts, auditOf(request));
      return reply.status(201).send({ success: true as const, document });
    },
  );

  app.patch(
    '/projects/:projectId/documents/:documentId',
    {
      config: { access: { staff: 'projects.write' } },
      schema: {
        tags: ['documents'],
        summary: "Change a document's title, category or whether the client sees it",
        params: documentParamsSchema,
        body: updateDocumentBodySchema,
        response: { 200: documentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { projectId, documentId } = request.params;
      const document = await updateProjectDocument(app, later, request.user!, projectId, documentId, request.body, auditOf(request));
      return { success: true as const, document };
    },
  );

  app.get(
    '/projects/:projectId/documents/:documentId/versions/:versionId/file',
    {
      config: { access: { staff: 'projects.read', client: true } },
      compress: false,
      schema: {
        tags: ['documents'],
        summary: 'A version\'s file: PDFs and images open in the browser (add ?download=1 to save), other kinds download',
        params: documentVersionParamsSchema,
        querystring: documentDownloadQuerySchema,
      },
    },
    async (request, reply) => {
      const { projectId, documentId, versionId } = request.params;
      const file = await findDocumentVersionFile(app, request.user!, projectId, documentId, versionId);
      const inline = file.previewable && !request.query.download;
      let stream;
      try {
        stream = await app.storage.get(file.storageKey);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        request.log.error({ key: file.storageKey }, 'document bytes missing from storage');
        throw notFound('Document version not found');
      }
      return reply
        .type(file.mimeType)
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', contentDisposition(inline ? 'inline' : 'attachment', file.fileName))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', inline && !file.isImage ? PDF_PREVIEW_POLICY : STORED_FILE_POLICY)
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        .header('Cache-Control', FILE_CACHE_CONTROL)
        .header('ETag', `"${file.sha256}"`)
        .send(stream);
    },
  );
};

export default documentsRoutes;
