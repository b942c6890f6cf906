import '../zod-setup.ts';
import { z } from 'zod';
import { disguisingCharacter, disguisedTextMessage } from './single-line.ts';

// PostgreSQL text cannot hold the NUL character, and a lone UTF-16 surrogate (half of a pair) is not
// Unicode at all: both are refused with a 400 that names the field, never a failed insert (500).
// Decision 111: the server refuses them in every body, query and route parameter of every route
// (server/plugins/storable-input.ts); this schema says the same in forms checked in the browser.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const NUL_TEXT_MESSAGE = 'Text must not contain NUL characters';
const BROKEN_TEXT_MESSAGE = 'Text must not contain broken Unicode characters (a lone surrogate)';

/** True when PostgreSQL can store the string as text (no NUL, no lone surrogate). */
const isStorableText = (value: string) => !UNSTORABLE.test(value);

/** Why the string cannot be stored, in words; null when it can. */
export const unstorableTextMessage = (value: string): string | null =>
  isStorableText(value) ? null : value.includes('\u0000') ? NUL_TEXT_MESSAGE : BROKEN_TEXT_MESSAGE;

/** A string field that the database can store. */
export const storableText = () =>
  z
    .string()
    .refine((v) => !v.includes('\u0000'), NUL_TEXT_MESSAGE)
    .refine(isStorableText, BROKEN_TEXT_MESSAGE);

/**
 * The string refused when it holds a line break, an invisible character or a text-direction control
 * (decision 195, single-line.ts): for names and titles only. Put it after trim() and before the length
 * checks, as the browser's check of the public forms does (form-check.ts).
 */
export const refineSingleLine = <T extends z.ZodString>(schema: T, what: string): T =>
  schema.refine((v) => disguisingCharacter(v) === null, {
    error: (issue) => disguisedTextMessage(what, disguisingCharacter(issue.input as string) ?? ''),
  });

/** A single-line name or title the database can store, trimmed: `what` starts its refusal ("Name"). */
export const singleLineText = (what: string) => refineSingleLine(storableText().trim(), what);

/** The string with every NUL and lone surrogate replaced by U+FFFD (for logs and audit rows only). */
export const toStorableText = (value: string) => value.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');

/**
 * The dotted path (`body.tasks.0.name`) of the first string, or object key, in `value` that cannot
 * be stored, or null. Walks without recursion, so a deeply nested body cannot overflow the stack.
 */
export function findUnstorableText(value: unknown, root: string): { field: string; message: string } | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      const message = unstorableTextMessage(v);
      if (message) return { field: at, message };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}.${i}`]);
    } else if (v && typeof v === 'object' && !(v instanceof Uint8Array)) {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const message = unstorableTextMessage(key);
        if (message) return { field: `${at}.${toStorableText(key)}`, message };
        stack.push([child, `${at}.${key}`]);
      }
    }
  }
  return null;
}
