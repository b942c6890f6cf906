import { LIST_PAGE_SIZE, type ListCursors, type Pagination } from '../../common/schemas/pagination.ts';

// Where a page of a sorted list starts (decision 257): the first page, or after or before a cursor
// the list answered. The page number only labels the page ("Page 3 of 7"); the cursor finds it.

export interface ListPageParam {
  page: number;
  after?: string;
  before?: string;
}

export const FIRST_LIST_PAGE: ListPageParam = { page: 1 };

/** The query string of a page request. */
export function listPageQuery(param: ListPageParam, pageSize = LIST_PAGE_SIZE): string {
  const cursor = param.after ? `&after=${param.after}` : param.before ? `&before=${param.before}` : '';
  return `?page=${param.page}&pageSize=${pageSize}${cursor}`;
}

interface CursorPage {
  pagination: Pagination;
  cursors: ListCursors;
}

/** The page after this one, by cursor; none on the last. */
export const nextListPage = (last: CursorPage): ListPageParam | undefined =>
  last.cursors.next ? { page: last.pagination.page + 1, after: last.cursors.next } : undefined;

/** The page before this one, by cursor; none on the first. */
export const previousListPage = (first: CursorPage): ListPageParam | undefined =>
  first.cursors.previous ? { page: Math.max(1, first.pagination.page - 1), before: first.cursors.previous } : undefined;
