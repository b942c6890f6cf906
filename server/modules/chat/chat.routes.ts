import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, badRequest } from '../../../common/errors.ts';
import { CONTACT_MESSAGES } from '../../../common/schemas/contact.ts';
import {
  CHAT_STREAM_CONTENT_TYPE,
  chatHandoffResponseSchema,
  chatHandoffSchema,
  chatOverviewResponseSchema,
  chatQuestionSchema,
  CHAT_QUESTION_MAX_CHARS,
  type ChatStreamEvent,
} from '../../../common/schemas/chat.ts';
import { CHAT_HANDOFF_GUARD, CHAT_TEXTS } from '../../../common/schemas/chat-texts.ts';
import { checkFormGuard, enforceFormRateLimit } from '../../lib/form-guard.ts';
import { hitRateLimit, waitWords, type RateLimitRule } from '../../lib/rate-limit.ts';
import { answerQuestion, CHAT_HISTORY_TURNS } from './chat-answer.ts';
import { chatOverview, handOffConversation, recentTurns, recordTurn, takeTurn, visitorHash } from './chat.service.ts';
import { visitorLimitKeyOf } from '../auth/admin-network.ts';
import { publishedCompany } from '../site-content/published-company.ts';

/** Questions per visitor address (decision 103): a person asks a few a minute; a script is stopped. */
export const CHAT_RATE_LIMITS = {
  perMinute: { bucket: 'chat:minute', limit: 6, windowMs: 60_000 },
  perDay: { bucket: 'chat:day', limit: 60, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, RateLimitRule>;

const CHAT_BODY_LIMIT_BYTES = 16 * 1024;

const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/chat',
    {
      config: { access: 'public' },
      bodyLimit: CHAT_BODY_LIMIT_BYTES,
      // Each line must reach the visitor as soon as it is written; compression would hold it back.
      compress: false,
      schema: {
        tags: ['chat'],
        summary: 'Ask the support assistant; the answer streams back as JSON lines (start, delta..., done or error)',
        body: chatQuestionSchema,
      },
    },
    async (request, reply) => {
      const question = request.body.question.trim();
      if (!question) throw badRequest(CHAT_TEXTS.emptyQuestion);
      if (question.length > CHAT_QUESTION_MAX_CHARS) throw badRequest(CHAT_TEXTS.tooLong);
      const visitor = await visitorHash(app, visitorLimitKeyOf(request));
      // The minute first: a question it refuses does not also use up the day.
      for (const [rule, message] of [
        [CHAT_RATE_LIMITS.perMinute, CHAT_TEXTS.perMinute],
        [CHAT_RATE_LIMITS.perDay, CHAT_TEXTS.perDay],
      ] as const) {
        const result = await hitRateLimit(app, rule, visitor);
        if (!result.allowed) {
          reply.header('Retry-After', String(Math.ceil(result.retryAfterMs / 1000)));
          throw new AppError('RATE_LIMITED', message(waitWords(result.retryAfterMs)));
        }
      }
      const conversation = await takeTurn(app, request.body.conversationId, visitor);
      if (!conversation) throw new AppError('RATE_LIMITED', CHAT_TEXTS.tooManyTurns);
      const history = conversation.turn > 1 ? await recentTurns(app, conversation.id, CHAT_HISTORY_TURNS) : [];

      const stream = new PassThrough();
      const abort = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const emit = (event: ChatStreamEvent) => {
        if (!stream.writableEnded) stream.write(`${JSON.stringify(event)}\n`);
      };
      emit({ type: 'start', conversationId: conversation.id });
      reply
        .header('Content-Type', CHAT_STREAM_CONTENT_TYPE)
        .header('Cache-Control', 'no-store')
        // Proxies such as nginx otherwise buffer the stream.
        .header('X-Accel-Buffering', 'no');
      void reply.send(stream);

      answerQuestion(app, { question, history, signal: abort.signal }, emit)
        .then((result) => recordTurn(app, conversation.id, { question, ...result }))
        .catch((err: unknown) => {
          request.log.error({ err }, 'chat answer failed');
          emit({ type: 'error', message: CHAT_TEXTS.emptyReply(publishedCompany(app)) });
        })
        .finally(() => stream.end());
      return reply;
    },
  );

  app.post(
    '/chat/handoff',
    {
      config: { access: 'public' },
      bodyLimit: CHAT_BODY_LIMIT_BYTES,
      schema: {
        tags: ['chat'],
        summary:
          "Send the chat conversation to the team (a contact message with the transcript, staff mail and the visitor's acknowledgement)",
        body: chatHandoffSchema,
        response: { 200: chatHandoffResponseSchema },
      },
    },
    async (request, reply) => {
      // A hand-off is a contact message: the contact form's guard and limit apply as they are.
      await enforceFormRateLimit(app, request, reply, CHAT_HANDOFF_GUARD);
      const { formToken, homepageUrl, ...fields } = request.body;
      if ((await checkFormGuard(app, CHAT_HANDOFF_GUARD, { formToken, homepageUrl })) === 'accept') {
        await handOffConversation(app, fields);
      } else {
        request.log.info('chat hand-off dropped by the bot guard');
      }
      return { success: true as const, message: CONTACT_MESSAGES.sentDescription };
    },
  );

  app.get(
    '/chat/conversations',
    {
      config: { access: { staff: 'support.answer' } },
      schema: {
        tags: ['chat'],
        summary: 'Staff: recent chat conversations (30 days), the questions most often left unanswered, hand-offs',
        response: { 200: chatOverviewResponseSchema },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { success: true as const, ...(await chatOverview(app)) };
    },
  );
};

export default chatRoutes;
