import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, ERROR_STATUS, type ApiError, type ErrorCode } from '../../common/errors.ts';

const STATUS_CODE: Partial<Record<number, ErrorCode>> = Object.fromEntries(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status, code as ErrorCode]),
);
STATUS_CODE[400] = 'BAD_REQUEST';

const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

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

async function errorHandlerPlugin(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toApiError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, body.message);
    return reply.status(status).send(body);
  });
}

export default fp(errorHandlerPlugin, { name: 'error-handler' });
