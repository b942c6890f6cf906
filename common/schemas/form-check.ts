// The browser's check of the public forms (contact, vendor registration), without zod (decision 144).
// The zod schemas in contact.ts and vendors.ts stay the source of truth: the server checks every
// submission with them. A form's rules here say the same thing in a table, and
// form-check.test.ts proves, for generated and hand-picked values, that the check and the schema
// accept the same values, report the same first problem and hand back the same data. zod cost the
// form pages 24 KB (brotli); zod/mini would share its chunks with the staff pages' full schemas
// (11 KB measured); this is under 1 KB, and the single-line rule it uses (decision 195) 0.5 KB more.

import { singleLineProblem } from './single-line.ts';
import { linkProblem } from './link-check.ts';

/** zod's default e-mail pattern (z.email()); form-check.test.ts compares it with zod's own. */
// eslint-disable-next-line no-useless-escape -- zod's pattern character for character (form-check.test.ts compares them)
export const EMAIL_PATTERN = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** A text field: trimmed, then checked in zod's order (disguising characters, empty, too long, e-mail form). */
interface TextRule {
  /** Set for a required field: the message when the trimmed value is empty. */
  missing?: string;
  max: number;
  tooLong: string;
  /** Set for a one-line name or title: the words that start its refusal of a disguising character (decision 195). */
  singleLine?: string;
  /** Set for an e-mail field: the message when a non-empty value is not an address. */
  invalidEmail?: string;
  /** Set for a web address field: a non-empty value must be a web link (link-check.ts, decision 300). */
  webAddress?: true;
}

/** A choice (radio buttons): the value must be one of these, as sent. */
interface ChoiceRule {
  oneOf: readonly string[];
  missing: string;
}

export type FieldRule = TextRule | ChoiceRule;
/** true when A and B are the same set of keys: a form file's own field list against its zod schema's. */
export type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type FormCheckResult<K extends string> =
  | { success: true; data: Record<K, string> }
  | { success: false; field: K; message: string };

/**
 * Checks the values field by field in the rules' order and answers the first problem (the one
 * zod's safeParse lists first) or the trimmed values.
 */
export function checkForm<K extends string>(rules: Record<K, FieldRule>, values: Record<K, string>): FormCheckResult<K> {
  const data = {} as Record<K, string>;
  for (const field of Object.keys(rules) as K[]) {
    const rule = rules[field];
    const raw = values[field] ?? '';
    if ('oneOf' in rule) {
      if (!rule.oneOf.includes(raw)) return { success: false, field, message: rule.missing };
      data[field] = raw;
      continue;
    }
    const value = raw.trim();
    const disguised = rule.singleLine === undefined ? null : singleLineProblem(value, rule.singleLine);
    if (disguised) return { success: false, field, message: disguised };
    if (rule.missing && !value) return { success: false, field, message: rule.missing };
    if (value.length > rule.max) return { success: false, field, message: rule.tooLong };
    if (rule.invalidEmail && value && !EMAIL_PATTERN.test(value)) return { success: false, field, message: rule.invalidEmail };
    const badLink = rule.webAddress && value ? linkProblem(value) : null;
    if (badLink) return { success: false, field, message: badLink };
    data[field] = value;
  }
  return { success: true, data };
}
