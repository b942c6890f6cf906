import type { z } from 'zod';
import { ApiRequestError } from '../../lib/api.ts';

/** One message per field, the first the check found (decision 235). */
export type FieldErrors<F extends string> = Partial<Record<F, string>>;

/**
 * What the shared zod schema (from common/) says about a form's values, keyed by field: the browser
 * runs the same check as the server, so a message reads the same wherever it comes from.
 */
export function schemaErrors<F extends string>(schema: z.ZodType, value: unknown): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  const parsed = schema.safeParse(value);
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0]) as F] ??= issue.message;
  return errors;
}

/** The messages of the required fields left blank; each form words its own (the specification's texts). */
export function blankErrors<K extends string>(values: Record<K, string>, messages: Partial<Record<K, string>>): FieldErrors<K> {
  return Object.fromEntries(Object.entries(messages).filter(([key]) => !values[key as K].trim())) as FieldErrors<K>;
}

/**
 * The field messages of a refused request (its `details`), for the fields the form has; a 409 clash
 * (a taken username, address or project code) goes on the field `clashField` names from its message.
 */
export function detailErrors<F extends string>(err: unknown, clashField: (message: string) => F | null = () => null): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  if (!(err instanceof ApiRequestError)) return errors;
  if (err.status === 409) {
    const field = clashField(err.message);
    if (field) errors[field] = err.message;
    return errors;
  }
  if (!Array.isArray(err.details)) return errors;
  for (const d of err.details as Array<{ field?: string; message?: string }>) {
    const field = d.field?.split('.').pop();
    if (field && d.message) errors[field as F] ??= d.message;
  }
  return errors;
}

/** The first field, in the form's order, that has a message. */
export const firstInvalid = <F extends string>(order: readonly F[], errors: FieldErrors<F>): F | undefined => order.find((f) => errors[f]);
