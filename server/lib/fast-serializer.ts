import fastJson from 'fast-json-stringify';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf: [{ type: X }, { type: 'null' }]` (how zod writes a nullable) as `type: [X, 'null']`:
 * fast-json-stringify writes the second form directly, the first by trying each branch.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplify(value);
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (anyOf?.length === 2) {
    const nullIndex = anyOf.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
    const other = anyOf[1 - nullIndex];
    if (
      nullIndex >= 0 &&
      typeof other?.type === 'string' &&
      ['string', 'number', 'integer', 'boolean'].includes(other.type) &&
      Object.keys(other).length === 1
    ) {
      delete out.anyOf;
      out.type = [other.type, 'null'];
    }
  }
  return out;
}

/** The JSON Schema of a zod response schema, as fast-json-stringify reads it. */
function responseJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return simplify(json) as JsonSchema;
}

/**
 * A route's `serializerCompiler` for its hottest answers (decision 153): fast-json-stringify compiled
 * from the route's zod response schemas, instead of the app-wide zod encode + JSON.stringify. It
 * writes only the properties the schema names, so nothing unlisted leaks; it does not re-validate
 * values the route built itself from typed database rows.
 */
export function fastSerializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  // Compiled by the route's first answer, not when the route is registered: the start does not
  // wait for it, and a process that never answers the route keeps no generated code (decision 301).
  let serialize: ((data: unknown) => string) | undefined;
  return (data) => (serialize ??= fastJson(responseJsonSchema(schema as z.ZodType)))(data);
}
