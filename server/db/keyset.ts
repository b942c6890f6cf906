import { asc, desc, sql, type Column, type SQL } from 'drizzle-orm';
import type { ListCursor } from '../../common/schemas/list-cursor.ts';
import { paginationOf, type ListCursors, type Pagination } from '../../common/schemas/pagination.ts';

// The one keyset (cursor) paging helper of the sorted lists (issue 22, decision 257). A page after a
// cursor starts where the cursor's row stood, through the order's index or a top-N sort, instead of
// reading and throwing away every row before it as OFFSET does; so the hundredth page costs what
// the first costs. The id breaks ties, so every row is seen exactly once however many share a key.

/** One order of a list: its sort key, whether that is text or a time, its direction and the id. */
export interface KeysetOrder {
  /** Written into cursors, so a cursor of one order is refused by another (common/schemas/archive.ts). */
  name: string;
  key: SQL | Column;
  kind: 'text' | 'time';
  direction: 'asc' | 'desc';
  id: Column;
}

/** What a list was asked for: a cursor (the page after or before its row) or a page number. */
export interface KeysetQuery {
  page: number;
  pageSize: number;
  after?: ListCursor;
  before?: ListCursor;
}

const encodeCursor = (order: string, key: string, id: string): string => Buffer.from(JSON.stringify([order, key, id])).toString('base64url');

/**
 * The pieces of one page's query: the condition past the cursor, the order to walk in, how many
 * rows to read, the key column to select (as `cursorKey`), and `page` to turn the rows read into
 * the page, in the list's order, its pagination block and its cursors.
 */
export function keyset(order: KeysetOrder, query: KeysetQuery) {
  const cursor = query.after ?? query.before ?? null;
  const backwards = Boolean(query.before);
  // A page before a cursor is read walking the other way, then turned round.
  const ascending = (order.direction === 'asc') !== backwards;
  const cursorKey: SQL<string> =
    order.kind === 'time' ? sql<string>`(extract(epoch from ${order.key}) * 1000000)::bigint::text` : sql<string>`${order.key}`;
  const keyValue = (key: string): SQL =>
    order.kind === 'time' ? sql`('epoch'::timestamptz + ${key}::bigint * interval '1 microsecond')` : sql`${key}`;
  const where = cursor
    ? ascending
      ? sql`(${order.key}, ${order.id}) > (${keyValue(cursor.key)}, ${cursor.id}::uuid)`
      : sql`(${order.key}, ${order.id}) < (${keyValue(cursor.key)}, ${cursor.id}::uuid)`
    : undefined;
  const edgeOf = (row: { cursorKey: string; id: string }) => encodeCursor(order.name, row.cursorKey, row.id);

  /**
   * The page and its cursors. With a cursor, one row more than a page was read to learn whether
   * more lie that way; by page number, `total` tells it.
   */
  /**
   * The page and its pagination block from the rows read (selected with `cursorKey`). The total is
   * counted apart, from the index: a window count over the rows made PostgreSQL carry every row
   * of the list through the page's query (bench: page 1 of 10,000 clients 121 ms with it, 53 ms
   * past a cursor without it), and past a cursor the rows no longer see the whole list anyway.
   */
  async function page<T extends { cursorKey: string; id: string }>(read: T[], countAll: () => Promise<number>): Promise<{ rows: T[]; pagination: Pagination; cursors: ListCursors }> {
    const total = await countAll();
    const { rows, edges: cursors } = edges(read, total);
    // By cursor there is no page number to count from: more lie ahead exactly when there is a next page.
    return { rows, pagination: { ...paginationOf(query, total), ...(cursor ? { hasMore: cursors.next !== null } : {}) }, cursors };
  }

  function edges<T extends { cursorKey: string; id: string }>(read: T[], total: number): { rows: T[]; edges: ListCursors } {
    if (!cursor) {
      const more = query.page * query.pageSize < total;
      return {
        rows: read,
        edges: { next: more && read.length ? edgeOf(read[read.length - 1]) : null, previous: query.page > 1 && read.length ? edgeOf(read[0]) : null },
      };
    }
    const more = read.length > query.pageSize;
    const rows = read.slice(0, query.pageSize);
    if (backwards) rows.reverse();
    const first = rows.length ? edgeOf(rows[0]) : null;
    const last = rows.length ? edgeOf(rows[rows.length - 1]) : null;
    // The cursor's own row lies on the side the walk came from.
    return { rows, edges: backwards ? { next: last, previous: more ? first : null } : { next: more ? last : null, previous: first } };
  }

  return {
    cursor,
    where,
    orderBy: ascending ? [asc(order.key), asc(order.id)] : [desc(order.key), desc(order.id)],
    limit: cursor ? query.pageSize + 1 : query.pageSize,
    offset: cursor ? 0 : (query.page - 1) * query.pageSize,
    cursorKey,
    page,
    edges,
  };
}
