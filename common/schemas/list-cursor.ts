import '../zod-setup.ts';
import { z } from 'zod';

// Keyset (cursor) paging of the sorted lists (issue 22, decision 257). A cursor is opaque to callers:
// base64url of JSON [order, key, id], the sort key of a row at the edge of a page and its id (the
// tie-breaker). Timestamps travel as whole microseconds since 1970, so no precision is lost between
// PostgreSQL and JavaScript.

/** A decoded cursor: the order it belongs to, the row's sort key and its id. */
export interface ListCursor {
  order: string;
  key: string;
  id: string;
}

/** The longest cursor accepted (a 300-character name, JSON-quoted, in base64url, fits easily). */
const CURSOR_MAX = 2_000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const cursorTuple = z.tuple([z.string().min(1).max(20), z.string().max(1_200), z.uuid()]);

function decodeBase64url(text: string): string {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** `after` / `before` of a list query: a cursor the list gave, else a 400 naming the parameter. */
export const listCursorSchema = z
  .string()
  .max(CURSOR_MAX)
  .transform((raw, ctx): ListCursor => {
    try {
      if (!BASE64URL.test(raw)) throw new Error('not base64url');
      const [order, key, id] = cursorTuple.parse(JSON.parse(decodeBase64url(raw)));
      return { order, key, id };
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Invalid cursor' });
      return z.NEVER;
    }
  });

/**
 * A timestamp key: whole microseconds since 1970 (what the server writes into a cursor), at most 17
 * digits (the year 5138), so PostgreSQL can always turn it back into a time.
 */
export const MICROSECONDS_KEY = /^\d{1,17}$/;
