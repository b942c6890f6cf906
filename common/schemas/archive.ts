import '../zod-setup.ts';
import { z } from 'zod';
import { storableText, unstorableTextMessage } from './text.ts';
import { paginationQuerySchema } from './pagination.ts';
import { listCursorSchema, MICROSECONDS_KEY, type ListCursor } from './list-cursor.ts';
import { okResponse } from './ok-response.ts';

// Archive, delete and the list filters of clients and projects (issue 22, decisions 247-249).

/** DELETE /users/clients/{id} and /projects/{id}: the name staff typed, needed only when the record has history. */
export const deleteBodySchema = z
  .object({ confirmName: storableText().max(300).optional() })
  .nullish()
  .transform((v) => v ?? {});

/** What a deletion removed, so the screen can say how many. */
const deleteOutcomeSchema = z.object({
  name: z.string(),
  projects: z.number().int(),
  reports: z.number().int(),
  messages: z.number().int(),
  /** Stored files (attachments, report images and thumbnails) removed with the rows. */
  files: z.number().int(),
});
export type DeleteOutcome = z.infer<typeof deleteOutcomeSchema>;
export const deleteResponseSchema = okResponse({ deleted: deleteOutcomeSchema });
export type DeleteResponse = z.infer<typeof deleteResponseSchema>;

/** The orders a list can take; `activity` is the newest report, message or change first. */
export const LIST_SORTS = ['date', 'name', 'activity'] as const;
export type ListSort = (typeof LIST_SORTS)[number];

/**
 * A list's query: the page, a status filter (a status of the kind, `archived`, or `all`; absent:
 * everything not archived, as the specification's list answered) and an order (absent: newest first).
 * `after` / `before` (decision 257): a cursor the list answered, for the page after or before that
 * row at the cost of a first page; `page` then only labels the answer. A cursor of another order, or
 * both at once, is a 400.
 */
export function listQuerySchema<const S extends readonly [string, ...string[]]>(statuses: S) {
  return paginationQuerySchema
    .extend({
      status: z.enum([...statuses, 'archived', 'all'] as [S[number] | 'archived' | 'all', ...(S[number] | 'archived' | 'all')[]]).optional(),
      sort: z.enum(LIST_SORTS).optional(),
      after: listCursorSchema.optional(),
      before: listCursorSchema.optional(),
    })
    .superRefine((query, ctx) => {
      if (query.after && query.before) ctx.addIssue({ code: 'custom', path: ['before'], message: 'Give either after or before, not both' });
      for (const field of ['after', 'before'] as const) {
        const cursor = query[field];
        if (cursor && !cursorFitsOrder(cursor, query.sort ?? 'date')) ctx.addIssue({ code: 'custom', path: [field], message: 'Invalid cursor' });
      }
    });
}

/** A cursor is for one order; a time order's key is whole microseconds, a name one text PostgreSQL can hold. */
function cursorFitsOrder(cursor: ListCursor, sort: ListSort): boolean {
  return cursor.order === sort && (sort === 'name' ? unstorableTextMessage(cursor.key) === null : MICROSECONDS_KEY.test(cursor.key));
}
