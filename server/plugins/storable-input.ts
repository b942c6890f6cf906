import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors.ts';
import { findUnstorableText, unstorableTextMessage } from '../../common/schemas/text.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Runs before a request carrying unstorable text is refused with 400: a sign-in route counts
     * the attempt against its limits here (it may itself refuse with 429).
     */
    onUnstorableText?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** The 400 of a field holding text PostgreSQL cannot store, in the one validation-error shape. */
function unstorableTextError(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', `${field}: ${message}`, [{ field, message }]);
}

/**
 * A multipart text field, checked as it is read (multipart bodies stream past the hook below). Every
 * reader of multipart fields calls this; the field is named without the `body.` prefix, as the
 * multipart readers' other validation errors are.
 */
function assertStorableField(field: string, value: string): void {
  const message = unstorableTextMessage(value);
  if (message) throw unstorableTextError(field, message);
}

/** Keeps a multipart text field in `fields`, checked as assertStorableField does; a non-text value is left out. */
export function keepStorableField(fields: Record<string, string>, part: { fieldname: string; value: unknown }): void {
  if (typeof part.value !== 'string') return;
  assertStorableField(part.fieldname, part.value);
  fields[part.fieldname] = part.value;
}

/**
 * Decision 111: no NUL character and no lone UTF-16 surrogate reaches the database from any route.
 * Route parameters, the query string and a parsed (JSON or form) body are walked before the route's
 * own schema runs; the first bad string, or object key, is refused with 400 naming it. New routes
 * get this without doing anything.
 */
async function storableInputPlugin(app: FastifyInstance) {
  // A plain callback hook: the common case (nothing found) costs no promise (decision 185).
  app.addHook('preValidation', (request, reply, done) => {
    const found =
      findUnstorableText(request.params, 'params') ??
      findUnstorableText(request.query, 'querystring') ??
      findUnstorableText(request.body, 'body');
    if (!found) return done();
    Promise.resolve()
      .then(() => request.routeOptions.config?.onUnstorableText?.(request, reply))
      .then(
        () => done(unstorableTextError(found.field, found.message)),
        (error: Error) => done(error),
      );
  });
}

export default fp(storableInputPlugin, { name: 'storable-input' });
