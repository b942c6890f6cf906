import { ApiRequestError } from './api.ts';

/**
 * The server's refusal as messages by field, to show beside the fields of a form: its validation
 * details ('body.email', or a multipart field's own name), or a 409 clash placed on the field
 * `clashField` names from its message (a taken username, address or project code).
 */
export function serverFieldErrors(err: unknown, clashField: (message: string) => string | null = () => null): Record<string, string> {
  if (!(err instanceof ApiRequestError)) return {};
  if (err.status === 409) {
    const field = clashField(err.message);
    return field ? { [field]: err.message } : {};
  }
  const details = Array.isArray(err.details) ? (err.details as Array<{ field?: unknown; message?: unknown }>) : [];
  return Object.fromEntries(
    details.filter((d) => typeof d.field === 'string' && typeof d.message === 'string').map((d) => [(d.field as string).replace(/^body\.?/, ''), d.message as string]),
  );
}
