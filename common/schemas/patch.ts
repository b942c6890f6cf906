import '../zod-setup.ts';
import { z } from 'zod';

type Undefaulted<S extends z.ZodRawShape> = { [K in keyof S]: S[K] extends z.ZodDefault<infer Inner extends z.core.$ZodType> ? Inner : S[K] };

/**
 * A creation schema's fields for a PATCH: the same rules and messages, without the defaults
 * (creation fills an absent field with its default; a correction must leave an absent field as it
 * is). Callers add `.partial()`, `.strict()` and the creation's refinements.
 */
export function withoutDefaults<S extends z.ZodRawShape>(object: z.ZodObject<S>): z.ZodObject<Undefaulted<S>> {
  const shape = Object.fromEntries(Object.entries(object.shape).map(([key, field]) => [key, field instanceof z.ZodDefault ? field.removeDefault() : field]));
  return z.object(shape) as unknown as z.ZodObject<Undefaulted<S>>;
}

/** A PATCH that names no field changes nothing: refused, so a client's mistake is not a silent success. */
export const NOTHING_TO_CHANGE = 'Nothing to change: send at least one field';
export const namesAField = (body: object) => Object.values(body).some((v) => v !== undefined);
