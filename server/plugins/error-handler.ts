import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, type ApiError, type ErrorCode } from '../../common/errors.ts';

const STATUS_CODE: Partial<Record<number, ErrorCode>> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);
STATUS_CODE[400] = 'BAD_REQUEST';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

/**
 * PostgreSQL's "this value cannot be stored" errors (class 22, data exception): a safety net behind
 * the schemas and the storable-text hook (decision 111), so input the checks missed is still a 400.
 * 22021 bad byte sequence / NUL, 22P05 untranslatable character, 22P02 invalid text representation
 * (a malformed uuid or number), 22001 too long, 22003 out of range, 22007/22008 bad date or time,
 * 2200N/22030 bad JSON.
 */
const DATA_EXCEPTION_CODES = new Set(['22021', '22P05', '22P02', '22001', '22003', '22007', '22008', '22023', '2200N', '22030', '22032', '22033', '22P06']);
export const UNSTORABLE_VALUE_MESSAGE = 'The request contains a value that cannot be stored. Please check the text you entered.';

/**
 * The multipart parser's (busboy's) own errors carry no code or status: a body cut off before its
 * closing boundary, a part without a header section, a boundary over its 256-character limit, etc.
 * They are the client's malformed body, so 400 (issue 16: they were 500).
 */
const MALFORMED_MULTIPART = [
  /^Unexpected end of (multipart data|form|file)/,
  /^Multipart: Boundary not found/,
  /^Malformed (part header|content type|urlencoded form)/,
  /^The needle cannot have a length bigger than/,
  /^Unsupported Content-Type/,
  /^Multipart: /,
];
const MALFORMED_MULTIPART_MESSAGE = 'The upload could not be read: the form data is incomplete or malformed. Please try again.';
const isMalformedMultipartError = (error: unknown): boolean =>
  error instanceof Error && (error as { statusCode?: unknown }).statusCode === undefined && MALFORMED_MULTIPART.some((re) => re.test(error.message));

/** The PostgreSQL error inside a thrown error (Drizzle wraps it as `cause`). */
function databaseErrorOf(error: unknown): { code: string } | null {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && 'severity' in e) return { code: e.code };
  }
  return null;
}

/**
 * What a failed request logs about its error: type, code, message and stack, but never the SQL
 * parameters (message texts, typed account names, tokens). Drizzle puts the parameters into its
 * error's message (`Failed query: ...\nparams: ...`) and `params`; PostgreSQL's own message and
 * `detail` can quote the value. Those are cut or redacted here.
 */
export function serializeErrorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (!error || typeof error !== 'object') return { message: String(error) };
  const e = error as { name?: string; message?: string; code?: unknown; stack?: string; cause?: unknown; query?: unknown; params?: unknown; severity?: unknown; routine?: unknown; table?: unknown; column?: unknown; constraint?: unknown; statusCode?: unknown };
  const isDatabase = typeof e.severity === 'string';
  const redact = (text: string) => {
    let out = text.split('\nparams:')[0];
    if (isDatabase) out = out.replace(/"[^"]*"/g, '"[redacted]"');
    return out;
  };
  const message = redact(String(e.message ?? ''));
  const stackBody = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)).join('\n') : undefined;
  const out: Record<string, unknown> = { type: e.name ?? 'Error', message };
  if (e.code !== undefined) out.code = e.code;
  if (e.statusCode !== undefined) out.statusCode = e.statusCode;
  if (typeof e.query === 'string') out.query = e.query; // the SQL text, with $1 placeholders only
  for (const key of ['routine', 'table', 'column', 'constraint'] as const) if (e[key] !== undefined) out[key] = e[key];
  if (stackBody) out.stack = `${out.type}: ${message}\n${stackBody}`;
  if (e.cause && depth < 3) out.cause = serializeErrorForLog(e.cause, depth + 1);
  return out;
}

/** Turns any thrown error into the one API error shape; 5xx details are logged, never sent. */
export function toApiError(error: unknown): { status: number; body: ApiError } {
  if (error instanceof AppError) {
    const body: ApiError = { success: false, message: error.message, code: error.code };
    if (error.details !== undefined && error.status < 500) body.details = error.details;
    return { status: error.status, body };
  }
  const fe = error as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const details = fe.validation.map((v) => ({
      field: [fe.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].filter(Boolean).join('.'),
      message: v.message,
    }));
    const first = details[0];
    return {
      status: 400,
      body: {
        success: false,
        code: 'VALIDATION_FAILED',
        message: first ? `${first.field}: ${first.message}` : 'The request is not valid',
        details,
      },
    };
  }
  if (isMalformedMultipartError(error)) {
    return { status: 400, body: { success: false, code: 'BAD_REQUEST', message: MALFORMED_MULTIPART_MESSAGE } };
  }
  if (databaseErrorOf(error) && DATA_EXCEPTION_CODES.has(databaseErrorOf(error)!.code)) {
    return { status: 400, body: { success: false, code: 'VALIDATION_FAILED', message: UNSTORABLE_VALUE_MESSAGE } };
  }
  if (isResponseSerializationError(fe)) {
    return { status: 500, body: { success: false, code: 'INTERNAL', message: INTERNAL_MESSAGE } };
  }
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const code = STATUS_CODE[status] ?? 'BAD_REQUEST';
    const message =
      fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413
        ? 'The request is too large'
        : fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415
          ? 'This content type is not accepted here'
          : (fe.message ?? 'The request is not valid');
    return { status, body: { success: false, code, message } };
  }
  return { status: 500, body: { success: false, code: 'INTERNAL', message: INTERNAL_MESSAGE } };
}

/** Logs a failed request's error as the one error handler does (also used by routes that answer errors with a page). */
export function logRequestError(request: FastifyRequest, error: unknown, status: number, body: ApiError): void {
  // `error`, not `err`: pino's own error serializer would print the whole object, parameters included.
  if (status >= 500) request.log.error({ error: serializeErrorForLog(error) }, 'request failed');
  else if (databaseErrorOf(error)) request.log.warn({ error: serializeErrorForLog(error), status }, 'a value the database refused');
  else request.log.info({ code: body.code, status }, body.message);
}

async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toApiError(error);
    logRequestError(request, error, status, body);
    return reply.status(status).send(body);
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler' });
