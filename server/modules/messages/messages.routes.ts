import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, apiErrorSchema, badRequest } from '../../../common/errors.ts';
import {
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_UPLOAD_JSON_BODY_LIMIT_BYTES,
  jsonUploadBodySchema,
  messageEventSchema,
  messageIdParamsSchema,
  messageListQuerySchema,
  messageListResponseSchema,
  messageProjectParamsSchema,
  messageResponseSchema,
  sendMessageBodySchema,
  unreadCountsResponseSchema,
  uploadResponseSchema,
} from '../../../common/schemas/messages.ts';
import { enforceRateLimit, giveBackRateLimit, hitRateLimit, rateLimited, waitWords, type RateLimitRule } from '../../lib/rate-limit.ts';
import { mayHearOf, portalChangeSchema } from '../../../common/schemas/portal-events.ts';
import { PORTAL_CHANGES_CHANNEL } from '../../events/portal-events.ts';
import { deliverQueuedMail } from '../../mail/mailer.ts';
import { fastSerializerCompiler } from '../../lib/fast-serializer.ts';
import { decodeBase64Upload, sanitizeAttachmentName, storeAttachment, tooLarge, type StoredAttachment } from '../files/attachment-store.ts';
import { recordUploadedFile, sweepUnsentFiles } from '../files/files.service.ts';
import {
  MESSAGE_EVENTS_CHANNEL,
  listProjectMessages,
  markMessageRead,
  sendMessage,
  streamSessionValid,
  unreadCounts,
} from './messages.service.ts';

const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema };

/** A comment line this often keeps proxies from closing a quiet stream, and re-checks the session. */
export const STREAM_HEARTBEAT_MS = 25_000;
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

const KIB = 1024;
const toKib = (bytes: number) => Math.ceil(bytes / KIB);

/**
 * Base64 JSON uploads are parsed whole (a 50 MB file costs about 320 MB of memory while it is read);
 * this many at a time per process, the rest are asked to retry. Multipart uploads stream and are not limited.
 */
export const JSON_UPLOADS_IN_FLIGHT_MAX = 2;

/** Whether a request's Content-Type says multipart/form-data (what @fastify/multipart parses, streaming). */
export function declaresMultipart(contentType: string | undefined): boolean {
  return /^\s*multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

/** How long the browser waits before reconnecting a dropped stream. */
const STREAM_RETRY_MS = 3_000;

const messagesRoutes: FastifyPluginAsyncZod = async (app) => {
  // Mails are delivered after the answer is sent; closing the app waits for those in flight.
  const deliveries = new Set<Promise<unknown>>();
  const inBackground = (work: Promise<unknown>, what: string) => {
    const p = work.catch((err) => app.log.error({ err }, `${what} failed`)).finally(() => deliveries.delete(p));
    deliveries.add(p);
  };
  let jsonUploadsInFlight = 0;
  // Open streams end when the app closes, or closing would wait for them forever.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });
  app.addHook('onClose', async () => {
    await Promise.allSettled([...deliveries]);
  });

  app.post(
    '/messages/upload',
    {
      config: { access: 'authenticated' },
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
      const uploaderId = request.user!._id;
      // What this upload holds of the hourly byte budget (none until its size is known).
      const reserved = { kib: 0, windowStart: new Date(0) };
      /**
       * Counts the upload's size against the hourly byte budget before it is stored (concurrent
       * uploads cannot all slip under it); past the budget the reservation is taken back and 429.
       */
      const reserve = async (bytes: number) => {
        const kib = toKib(Math.min(bytes, MESSAGE_ATTACHMENT_MAX_BYTES));
        const hit = await hitRateLimit(app, UPLOAD_BYTES_RATE_LIMIT, uploaderId, kib);
        if (!hit.allowed) {
          await giveBackRateLimit(app, UPLOAD_BYTES_RATE_LIMIT, uploaderId, hit.windowStart, kib);
          reply.header('Retry-After', String(Math.ceil(hit.retryAfterMs / 1000)));
          throw new AppError('RATE_LIMITED', RATE_LIMIT_TEXTS.uploadBytes(waitWords(hit.retryAfterMs)));
        }
        Object.assign(reserved, { kib, windowStart: hit.windowStart });
      };
      let stored: StoredAttachment | undefined;
      let file;
      try {
        stored = request.isMultipart() ? await receiveMultipart() : await receiveJson();
        file = await recordUploadedFile(app, uploaderId, stored);
      } catch (err) {
        if (stored) await app.storage.delete(stored.storageKey).catch(() => undefined);
        // Nothing was stored: the whole reservation goes back.
        await giveBackRateLimit(app, UPLOAD_BYTES_RATE_LIMIT, uploaderId, reserved.windowStart, reserved.kib).catch((e) =>
          request.log.warn({ err: e }, 'could not release an upload reservation'),
        );
        throw err;
      }
      // The reservation was the declared size; only the stored bytes count.
      await giveBackRateLimit(app, UPLOAD_BYTES_RATE_LIMIT, uploaderId, reserved.windowStart, reserved.kib - toKib(stored.size));
      // Uploads that were never sent are cleaned up now and then, here rather than on a timer.
      inBackground(sweepUnsentFiles(app), 'sweeping unsent uploads');
      return reply.status(201).send({ success: true as const, file });

      async function receiveMultipart(): Promise<StoredAttachment> {
        let part;
        try {
          part = await request.file({ limits: { fileSize: MESSAGE_ATTACHMENT_MAX_BYTES, files: 1 } });
        } catch (err) {
          const status = (err as { statusCode?: number }).statusCode;
          if (status && status >= 400 && status < 500) throw err;
          throw badRequest('The upload was interrupted before the whole file arrived');
        }
        if (!part) throw badRequest('Choose a file to upload');
        // The request's declared length bounds the file's size (a chunked body without one reserves the maximum).
        const declared = Number(request.headers['content-length']);
        try {
          await reserve(Number.isFinite(declared) && declared > 0 ? declared : MESSAGE_ATTACHMENT_MAX_BYTES);
        } catch (err) {
          part.file.resume();
          throw err;
        }
        const field = (name: string) => {
          const f = part.fields[name];
          return f && !Array.isArray(f) && f.type === 'field' ? String(f.value) : undefined;
        };
        let name: string;
        try {
          name = sanitizeAttachmentName(field('name') ?? part.filename);
        } catch (err) {
          part.file.resume();
          throw err;
        }
        // The multipart reader stops at the limit and says so; the stored file must not be a cut-off one.
        part.file.once('limit', () => part.file.destroy(tooLarge(name)));
        const stored = await storeAttachment(app, { body: part.file, name, declaredMime: field('mimeType') ?? part.mimetype });
        // When the whole body arrived at once, the reader may have stopped at the limit before we listened.
        if (part.file.truncated) {
          await app.storage.delete(stored.storageKey).catch(() => undefined);
          throw tooLarge(name);
        }
        return stored;
      }

      async function receiveJson(): Promise<StoredAttachment> {
        const parsed = jsonUploadBodySchema.safeParse(request.body);
        if (!parsed.success) throw new AppError('VALIDATION_FAILED', parsed.error.issues[0]?.message ?? 'The upload is not valid');
        const name = sanitizeAttachmentName(parsed.data.name);
        const { bytes, declaredMime } = decodeBase64Upload(parsed.data.file, parsed.data.mimeType);
        if (bytes.length > MESSAGE_ATTACHMENT_MAX_BYTES) throw tooLarge(name);
        await reserve(bytes.length);
        return storeAttachment(app, { body: Readable.from([bytes]), name, declaredMime });
      }
    },
  );

  app.post(
    '/messages',
    {
      config: { access: 'authenticated' },
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
      const outcome = await sendMessage(app, request.user!, request.body, MESSAGE_RATE_LIMITS);
      if ('refused' in outcome) throw rateLimited(reply, outcome.refused.retryAfterMs, RATE_LIMIT_TEXTS.messages);
      const { message, mailId } = outcome;
      if (mailId) inBackground(deliverQueuedMail(app, [mailId]), 'message notification');
      return reply.status(201).send({ success: true as const, message });
    },
  );

  app.get(
    '/messages/project/:projectId',
    {
      config: { access: 'authenticated' },
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
      config: { access: 'authenticated' },
      schema: {
        tags: ['messages'],
        summary: 'Mark a message read (only its receiver; any admin for a message to the company)',
        params: messageIdParamsSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const message = await markMessageRead(app, request.user!, request.params.id);
      return { success: true as const, message };
    },
  );

  app.get(
    '/messages/unread',
    {
      config: { access: 'authenticated' },
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
      config: { access: 'authenticated' },
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
      const unsubscribeMessages = app.events.subscribe(MESSAGE_EVENTS_CHANNEL, (event) => {
        if (event.kind === 'resync') return send('resync', {});
        const parsed = messageEventSchema.safeParse(event.payload);
        // A client hears only about its own projects; staff about all.
        if (!parsed.success || (user.role !== 'admin' && parsed.data.clientId !== user._id)) return;
        send('message', parsed.data);
      });
      // Projects, timelines, reports and clients: heard by exactly those who may read them.
      const unsubscribeChanges = app.events.subscribe(PORTAL_CHANGES_CHANNEL, (event) => {
        // A reconnect tells every channel; the messages channel has already sent the one resync.
        if (event.kind === 'resync') return;
        const parsed = portalChangeSchema.safeParse(event.payload);
        if (!parsed.success || !mayHearOf(user, parsed.data)) return;
        send('change', parsed.data);
      });
      const unsubscribe = () => {
        unsubscribeMessages();
        unsubscribeChanges();
      };
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
