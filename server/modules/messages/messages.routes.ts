import { auditOf } from '../audit/audit.ts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema } from '../../../common/errors.ts';
import {
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_UPLOAD_JSON_BODY_LIMIT_BYTES,
  editMessageBodySchema,
  jsonUploadBodySchema,
  markThreadReadResponseSchema,
  messageIdParamsSchema,
  messageVersionsResponseSchema,
  messageListQuerySchema,
  messageListResponseSchema,
  messageProjectParamsSchema,
  messageResponseSchema,
  sendMessageBodySchema,
  unreadCountsResponseSchema,
  uploadResponseSchema,
  type JsonUploadBody,
} from '../../../common/schemas/messages.ts';
import { afterAnswer } from '../../lib/after-answer.ts';
import { enforceRateLimit, rateLimited, type RateLimitRule } from '../../lib/rate-limit.ts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { uploadMessageAttachment, type AttachmentUpload } from './message-uploads.service.ts';
import { listenForViewer } from '../../events/portal-events.ts';
import { onAccountEnded } from '../../events/account-events.ts';
import { streamSessionValid } from '../auth/sessions.service.ts';
import { sendMessage } from './message-send.service.ts';
import { listProjectMessages } from './message-thread.service.ts';
import { markMessageRead, unreadCounts } from './messages.service.ts';
import { deleteMessage, editMessage, listMessageVersions, markThreadRead } from './message-changes.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

/** A comment line this often keeps proxies from closing a quiet stream, and re-checks the session. */
const STREAM_HEARTBEAT_MS = 25_000;
/** Uploads per user per hour: plenty for people, a ceiling for a script filling the disk (decision 063). */
export const UPLOAD_RATE_LIMIT: RateLimitRule = { bucket: 'message-upload', limit: 120, windowMs: 60 * 60_000 };
/** Bytes a user may upload per hour, counted in KiB (an integer column never overflows): 500 MiB, ten full-size videos. */
export const UPLOAD_BYTES_RATE_LIMIT: RateLimitRule = { bucket: 'message-upload-kib', limit: 500 * 1024, windowMs: 60 * 60_000 };
/** Messages per sender: nobody types one every two seconds for a minute, or 120 in an hour; a runaway script does (decision 063). */
export const MESSAGE_RATE_LIMITS: readonly [RateLimitRule, RateLimitRule] = [
  { bucket: 'message-send-minute', limit: 30, windowMs: 60_000 },
  { bucket: 'message-send-hour', limit: 120, windowMs: 60 * 60_000 },
];

export const RATE_LIMIT_TEXTS = {
  messages: (wait: string) => `You are sending messages too quickly. Please try again in ${wait}.`,
  uploads: (wait: string) => `Too many uploads. Please try again in ${wait}.`,
  uploadBytes: (wait: string) => `You have reached the upload limit of 500 MB per hour. Please try again in ${wait}.`,
} as const;

/** The specification's JSON upload, checked here because the route also takes multipart bodies. */
function jsonUploadOf(body: unknown): JsonUploadBody {
  const parsed = jsonUploadBodySchema.safeParse(body);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', parsed.error.issues[0]?.message ?? 'The upload is not valid');
  return parsed.data;
}

/**
 * Base64 JSON uploads are parsed whole (a 50 MB file costs about 320 MB of memory while it is read);
 * this many at a time per process, the rest are asked to retry. Multipart uploads stream and are not limited.
 */
export const JSON_UPLOADS_IN_FLIGHT_MAX = 2;

/** Whether a request's Content-Type says multipart/form-data (what @fastify/multipart parses, streaming). */
function declaresMultipart(contentType: string | undefined): boolean {
  return /^\s*multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

/** How long the browser waits before reconnecting a dropped stream. */
const STREAM_RETRY_MS = 3_000;

const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  // Mails and sweeps go on after the answer is sent; closing the app waits for those in flight.
  const later = afterAnswer(app);
  let jsonUploadsInFlight = 0;
  // Open streams end when the app closes, or closing would wait for them forever.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  app.post(
    '/messages/upload',
    {
      config: { access: { staff: 'projects.write', client: true } },
      // The specification's JSON shape carries the file as base64: a 50 MB file needs about 67 MB.
      bodyLimit: MESSAGE_UPLOAD_JSON_BODY_LIMIT_BYTES,
      // Refused before the body is read, so a burst of large JSON uploads cannot exhaust memory.
      preParsing: async (request, reply, payload) => {
        // By the header: request.isMultipart() is only set by the multipart parser, which runs after
        // this hook (it was false here for every upload, so multipart ones took the JSON slots and
        // a third concurrent one got a 503: the soak's "unexplained" 503s, decision 181).
        if (declaresMultipart(request.headers['content-type'])) {
          // Counted before a byte of the file is read, for both forms: a refused upload costs nothing.
          await enforceRateLimit(app, reply, UPLOAD_RATE_LIMIT, request.user!._id, RATE_LIMIT_TEXTS.uploads);
          return payload;
        }
        if (jsonUploadsInFlight >= JSON_UPLOADS_IN_FLIGHT_MAX) {
          reply.header('Retry-After', '5');
          throw new AppError('SERVICE_UNAVAILABLE', 'The server is busy with other uploads. Please try again in a moment.');
        }
        jsonUploadsInFlight++;
        let released = false;
        const release = () => {
          if (!released) jsonUploadsInFlight--;
          released = true;
        };
        reply.raw.once('close', release);
        reply.raw.once('finish', release);
        await enforceRateLimit(app, reply, UPLOAD_RATE_LIMIT, request.user!._id, RATE_LIMIT_TEXTS.uploads);
        return payload;
      },
      schema: {
        tags: ['messages'],
        summary: 'Upload one attachment (multipart field "file", or JSON with the file as base64); checked by its bytes',
        consumes: ['multipart/form-data', 'application/json'],
        response: { 201: uploadResponseSchema, 413: apiErrorSchema, 415: apiErrorSchema, 429: apiErrorSchema, 503: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const upload: AttachmentUpload = request.isMultipart()
        ? {
            form: 'multipart',
            readFile: () => request.file({ limits: { fileSize: MESSAGE_ATTACHMENT_MAX_BYTES, files: 1 } }),
            declaredBytes: Number(request.headers['content-length']),
          }
        : { form: 'json', body: jsonUploadOf(request.body) };
      const outcome = await uploadMessageAttachment(app, later, {
        uploaderId: request.user!._id,
        upload,
        byteBudget: UPLOAD_BYTES_RATE_LIMIT,
        log: request.log,
      });
      if ('refused' in outcome) throw rateLimited(reply, outcome.refused.retryAfterMs, RATE_LIMIT_TEXTS.uploadBytes);
      return reply.status(201).send({ success: true as const, file: outcome.file });
    },
  );

  app.post(
    '/messages',
    {
      config: { access: { staff: 'projects.write', client: true } },
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['messages'],
        summary: "Send a message in a project's thread (sender and receiver are decided by the server)",
        body: sendMessageBodySchema,
        response: { 201: messageResponseSchema, 429: apiErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      // Counted in the send's own statement, the minute first: a script refused there does not use up its hour as well.
      const outcome = await sendMessage(app, later, request.user!, request.body, MESSAGE_RATE_LIMITS, auditOf(request));
      if ('refused' in outcome) throw rateLimited(reply, outcome.refused.retryAfterMs, RATE_LIMIT_TEXTS.messages);
      return reply.status(201).send({ success: true as const, message: outcome.message });
    },
  );

  app.get(
    '/messages/project/:projectId',
    {
      config: { access: { staff: 'projects.read', client: true } },
      serializerCompiler: fastSerializerCompiler,
      schema: {
        tags: ['messages'],
        summary:
          "A page of a project's message thread, oldest first, with names and attachments: the newest `limit` (default 100, at most 200), or those before the `before` cursor (createdAt_id of the oldest message held); hasMore says whether older ones exist",
        params: messageProjectParamsSchema,
        querystring: messageListQuerySchema,
        response: { 200: messageListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const page = await listProjectMessages(app, request.user!, request.params.projectId, request.query);
      return { success: true as const, ...page };
    },
  );

  app.put(
    '/messages/:id/read',
    {
      config: { access: { staff: 'projects.write', client: true } },
      schema: {
        tags: ['messages'],
        summary: "Mark a message read (only its receiver: a client's person marks their own read, decision 281; any admin for a message to the company)",
        params: messageIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const message = await markMessageRead(app, request.user!, request.params.id);
      return { success: true as const, message };
    },
  );

  app.patch(
    '/messages/:id',
    {
      config: { access: { staff: 'projects.write', client: true } },
      schema: {
        tags: ['messages'],
        summary: 'Correct a message (its author only, within 15 minutes of sending; 409 after that or once removed)',
        params: messageIdParamsSchema,
        body: editMessageBodySchema,
        response: { 200: messageResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const message = await editMessage(app, request.user!, request.params.id, request.body, auditOf(request));
      return { success: true as const, message };
    },
  );

  app.get(
    '/messages/:id/versions',
    {
      config: { access: { staff: 'projects.read' } },
      schema: {
        tags: ['messages'],
        summary: "An edited message's earlier versions, newest first (staff; decision 259)",
        params: messageIdParamsSchema,
        response: { 200: messageVersionsResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, versions: await listMessageVersions(app, request.user!, request.params.id) }),
  );

  app.delete(
    '/messages/:id',
    {
      config: { access: { staff: 'projects.write', client: true } },
      schema: {
        tags: ['messages'],
        summary:
          "Remove a message (its author only, within 15 minutes of sending): it stays in the thread as 'This message was removed', its text and attachments go",
        params: messageIdParamsSchema,
        response: { 200: messageResponseSchema, 409: apiErrorSchema, ...errors },
      },
    },
    async (request) => {
      const message = await deleteMessage(app, request.user!, request.params.id, request.log, auditOf(request));
      return { success: true as const, message };
    },
  );

  app.put(
    '/messages/project/:projectId/read',
    {
      config: { access: { staff: 'projects.write', client: true } },
      schema: {
        tags: ['messages'],
        summary: "Mark every message of a project's thread that waits for the caller as read ('Mark all as read')",
        params: messageProjectParamsSchema,
        response: { 200: markThreadReadResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, marked: await markThreadRead(app, request.user!, request.params.projectId) }),
  );

  app.get(
    '/messages/unread',
    {
      config: { access: { staff: 'projects.read', client: true } },
      schema: {
        tags: ['messages'],
        summary: 'Unread messages for the signed-in user, in total and per project',
        response: { 200: unreadCountsResponseSchema, ...errors },
      },
    },
    async (request) => ({ success: true as const, ...(await unreadCounts(app, request.user!)) }),
  );

  app.get(
    '/messages/stream',
    {
      config: { access: { staff: 'projects.read', client: true } },
      compress: false,
      schema: {
        tags: ['messages'],
        summary:
          "Server-sent events: new messages and read receipts (`message`), and changes to projects, timelines, reports and clients (`change`), of what the user may see",
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const user = request.user!;
      const sessionId = request.sessionId;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // Proxies such as nginx would otherwise hold events back in their buffers.
        'X-Accel-Buffering': 'no',
        Connection: 'keep-alive',
        'X-Request-Id': request.id,
      });
      res.write(`retry: ${STREAM_RETRY_MS}\n\n`);
      const send = (event: string, data: unknown) => {
        if (!res.writableEnded) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const unsubscribe = listenForViewer(app, user, send);
      // A deactivated account's stream closes at once on every process (decision 275), not at the next heartbeat.
      const stopEndListener = onAccountEnded(app, user._id, () => end());
      const heartbeat = setInterval(() => {
        // A signed-out or expired session loses its stream; the check does not count as activity.
        (sessionId ? streamSessionValid(app, sessionId, user.role) : Promise.resolve(false))
          .then((valid) => (valid ? res.write(': keep-alive\n\n') : end()))
          .catch(() => end());
      }, STREAM_HEARTBEAT_MS);
      heartbeat.unref();
      function end() {
        clearInterval(heartbeat);
        unsubscribe();
        stopEndListener();
        streams.delete(end);
        if (!res.writableEnded) res.end();
      }
      streams.add(end);
      res.on('close', end);
      // Events are only heard once the listening connection is up; the page reads again on 'ready'.
      const live = await app.events.ready();
      if (!live) {
        // Without LISTEN there is nothing to stream: the browser polls until a later retry works.
        end();
        return reply;
      }
      send('ready', { live });
      return reply;
    },
  );
};

export default messagesRoutes;
