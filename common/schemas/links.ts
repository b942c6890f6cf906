import '../zod-setup.ts';
import { z } from 'zod';
import { LINK_MESSAGES, linkProblem, type LinkKind } from './link-check.ts';

// Issue 45, decision 300: the one schema of every link a person can enter and the product renders,
// built on the rule of link-check.ts. The same schema checks the website editor's fields in the
// browser and the API's bodies on the server, with the same field messages.

/**
 * The link fields of every schema, with their kind: the website editor draws them as web address
 * inputs, and the check of stored content (server/modules/site-content/unsafe-links.ts) finds them.
 */
export const LINK_FIELDS = z.registry<{ link: LinkKind }>();

const linkSchema = (kind: LinkKind) =>
  z
    .string({ error: LINK_MESSAGES[kind] })
    .trim()
    .superRefine((value, ctx) => {
      const problem = linkProblem(value, kind);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .register(LINK_FIELDS, { link: kind });

/** A web address (https: or http:), trimmed. */
export const webAddress = linkSchema('web');

/** A web address that may be left out. */
export const optionalWebAddress = webAddress.optional();

/** A text field that holds a web address when it is filled in (its own schema trims it and says when it is empty). */
export const webAddressOrEmpty = <T extends z.ZodType<string>>(schema: T) =>
  schema.refine((value) => value === '' || linkProblem(value) === null, {
    error: (issue) => linkProblem(String(issue.input)) ?? LINK_MESSAGES.web,
  });

/** Where a schema holds a link: its path ('*' for every item of a list), kind, and whether it may be left out. */
export interface LinkField {
  path: string[];
  kind: LinkKind;
  optional: boolean;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}
const defOf = (schema: z.ZodType) => (schema as unknown as { def: Def }).def;

/** Every link field of `schema` (objects and lists walked; refinements keep a schema's kind). */
export function linkFields(schema: z.ZodType, path: string[] = [], optional = false): LinkField[] {
  const def = defOf(schema);
  if (def.type === 'optional' && def.innerType) return linkFields(def.innerType, path, true);
  const meta = LINK_FIELDS.get(schema);
  if (meta) return [{ path, kind: meta.link, optional }];
  if (def.type === 'object' && def.shape) return Object.entries(def.shape).flatMap(([key, field]) => linkFields(field, [...path, key]));
  if (def.type === 'array' && def.element) return linkFields(def.element, [...path, '*']);
  return [];
}
