import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { forbidden, type ApiError } from '../../../common/errors.ts';
import { HONEYPOT_FIELD } from '../../../common/form-guard.ts';
import {
  NEWSLETTER_BACK_FIELD,
  NEWSLETTER_FORM_CONTEXT_KEY,
  NEWSLETTER_FORM_TEXT,
  NEWSLETTER_MESSAGES,
  type NewsletterFormAnswer,
} from '../../../common/newsletter.ts';
import { PATHS } from '../../../common/paths.ts';
import { newsletterSubscribeSchema } from '../../../common/schemas/newsletter.ts';
import { enforceFormRateLimit } from '../../lib/form-guard.ts';
import { escapeHtml, mailConfigured } from '../../mail/mailer.ts';
import { CROSS_SITE_REFUSED } from '../../plugins/access.ts';
import { logRequestError, toApiError } from '../../plugins/error-handler.ts';
import { subscribeToNewsletter } from './newsletter.service.ts';
import { publishedCompany, type PublishedCompany } from '../site-content/published-company.ts';

// Decision 176: the footer's newsletter box posts here as a plain HTML form when JavaScript is off
// (content pages are not hydrated, decision 140), and gets a page back. Same address check, same
// per-address limit (the JSON route's own counter) and same texts as POST /api/newsletter/subscribe.
// A pre-rendered page cannot carry a per-visitor form token, so instead of it the post must come
// from one of our own pages (Origin, or Referer when a browser sends no Origin).

const FORM_BODY_LIMIT_BYTES = 4 * 1024;
const { emptyAddress: EMPTY_ADDRESS, invalidAddress: VALID_ADDRESS } = NEWSLETTER_MESSAGES;

const fieldsSchema = z.object({
  email: z.string().catch(''),
  [HONEYPOT_FIELD]: z.string().catch(''),
  [NEWSLETTER_BACK_FIELD]: z.string().max(2000).optional().catch(undefined),
});

/** The fields of the post; a missing or unreadable one is empty. */
function formFields(body: unknown): z.infer<typeof fieldsSchema> {
  const parsed = fieldsSchema.safeParse(body && typeof body === 'object' ? body : {});
  return parsed.success ? parsed.data : { email: '', [HONEYPOT_FIELD]: '' };
}

/** The origin of a header value, or null when it is not a URL. */
function originOf(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * Refuses a post that does not say it comes from our own pages. Browsers send Origin with every
 * form post (the access layer has already refused a foreign one); without it, the Referer must be
 * ours. Neither is a bot or a page that hides where it comes from.
 */
function assertFromOurPages(app: FastifyInstance, request: FastifyRequest) {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  const from = origin !== undefined ? origin : referer !== undefined ? originOf(referer) : null;
  if (!from || !app.config.allowedOrigins.includes(from)) throw forbidden(CROSS_SITE_REFUSED);
}

/**
 * A path of this site to go back to: the answer page's own field, else the Referer; only paths of
 * our own origins, without their query (a page's query may hold a link's token); the home page otherwise.
 */
function backPath(app: FastifyInstance, request: FastifyRequest, field: string | undefined): string {
  const publicOrigin = new URL(app.config.publicUrl).origin;
  const candidates: string[] = [];
  if (field && field.startsWith('/') && !field.startsWith('//') && !field.startsWith('/\\')) candidates.push(field);
  if (request.headers.referer) candidates.push(request.headers.referer);
  for (const candidate of candidates) {
    let url: URL;
    try {
      url = new URL(candidate, publicOrigin);
    } catch {
      continue;
    }
    if (url.origin !== publicOrigin && !app.config.allowedOrigins.includes(url.origin)) continue;
    if (url.pathname === PATHS.newsletterSubscribe) continue;
    return url.pathname;
  }
  return PATHS.home;
}

/** The answer without the web app (an API-only process): the same words in a bare document. */
function plainAnswerPage(company: PublishedCompany, answer: NewsletterFormAnswer): string {
  return [
    '<!doctype html>',
    '<html lang="en-NG"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(NEWSLETTER_FORM_TEXT.title)} | ${escapeHtml(company.name)}</title></head>`,
    `<body><main><h1>${escapeHtml(NEWSLETTER_FORM_TEXT.title)}</h1>`,
    `<p role="${answer.ok ? 'status' : 'alert'}">${escapeHtml(answer.message)}</p>`,
    `<p><a href="${escapeHtml(answer.back)}">${escapeHtml(NEWSLETTER_FORM_TEXT.back)}</a></p></main></body></html>`,
    '',
  ].join('\n');
}

async function sendAnswer(app: FastifyInstance, request: FastifyRequest, reply: FastifyReply, answer: NewsletterFormAnswer) {
  reply.header('Cache-Control', 'no-store');
  const page = { path: PATHS.newsletterSubscribe, context: { [NEWSLETTER_FORM_CONTEXT_KEY]: answer }, status: answer.status };
  if (app.webPages.render && (await app.webPages.render(request, reply, page))) return reply;
  return reply.status(answer.status).type('text/html; charset=utf-8').send(plainAnswerPage(publishedCompany(app), answer));
}

/** What the page says about a refused post: the JSON route's texts, the address ones as the box words them. */
function refusalMessage(body: ApiError): string {
  const detail = body.code === 'VALIDATION_FAILED' && Array.isArray(body.details) ? (body.details[0] as { field?: string; message?: string } | undefined) : undefined;
  if (detail?.field === 'body.email') return VALID_ADDRESS;
  return detail?.message ?? body.message;
}

const newsletterFormRoutes: FastifyPluginAsync = async (app) => {
  // A form post only: URL-encoded fields (this context's parsers; JSON goes to the API route).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(
    PATHS.newsletterSubscribe,
    {
      config: { access: 'public' },
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      // Every refusal (a foreign origin, a NUL character, a body too large, the limit) is a page too.
      errorHandler: async (error, request, reply) => {
        const { status, body } = toApiError(error);
        logRequestError(request, error, status, body);
        const back = backPath(app, request, formFields(request.body)[NEWSLETTER_BACK_FIELD]);
        return sendAnswer(app, request, reply, { ok: false, status, message: refusalMessage(body), back });
      },
    },
    async (request, reply) => {
      assertFromOurPages(app, request);
      const fields = formFields(request.body);
      const back = backPath(app, request, fields[NEWSLETTER_BACK_FIELD]);
      const parsed = newsletterSubscribeSchema.safeParse({ email: fields.email });
      if (!parsed.success) {
        // The schema's two texts; anything else it says (too long) is, to a person, not a valid address.
        const said = parsed.error.issues[0]?.message;
        const message = said === EMPTY_ADDRESS ? EMPTY_ADDRESS : VALID_ADDRESS;
        request.log.info({ code: 'VALIDATION_FAILED', status: 400 }, `body.email: ${message}`);
        return sendAnswer(app, request, reply, { ok: false, status: 400, message, back });
      }
      // Counted like the API route's posts, in the same counter: an address has one allowance.
      await enforceFormRateLimit(app, request, reply, 'newsletter');
      if (fields[HONEYPOT_FIELD].trim() !== '') request.log.info('newsletter subscription dropped by the bot guard');
      else await subscribeToNewsletter(app, parsed.data.email);
      // The same answer whatever the address's state, so the page does not reveal who is subscribed.
      return sendAnswer(app, request, reply, { ok: true, status: 200, message: mailConfigured(app) ? NEWSLETTER_MESSAGES.checkInbox : NEWSLETTER_MESSAGES.noMail, back });
    },
  );
};

export default newsletterFormRoutes;
