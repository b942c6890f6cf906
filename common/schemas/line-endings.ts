import '../zod-setup.ts';
import { z } from 'zod';

// A browser sends a textarea's line breaks as CRLF in a form post or multipart body (FormData), as
// LF from a script; pasted text can bring a lone CR (old Mac files) or a Unicode line or paragraph
// separator. Stored as they came, a mail shows doubled breaks and a PDF draws the CR as a box, and a
// length limit counts each CRLF twice while the textarea's own maxlength counts it once. Every
// multi-line field therefore stores LF only (decision 200).
const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g;

/** The text with every line break (CRLF, CR, NEL, LS, PS) written as LF. */
export const normaliseLineEndings = (value: string): string => value.replace(LINE_BREAK, '\n');

/**
 * A multi-line field: the given string schema with its line breaks made LF before any later check,
 * so `.trim()`, `.min()` and `.max()` chained after it see the text as it will be stored.
 */
export const multiline = (schema: z.ZodString): z.ZodString => schema.overwrite(normaliseLineEndings);

/** A plain multi-line string field (`z.string()` with LF line breaks). */
export const multilineString = (params?: Parameters<typeof z.string>[0]) => multiline(z.string(params));
