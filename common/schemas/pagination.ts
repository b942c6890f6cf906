import '../zod-setup.ts';
import { z } from 'zod';
import { okResponse } from './ok-response.ts';

/**
 * Page size of every list that can grow (clients, projects, reports). The specification names 50 as
 * its page size; this is its one home.
 */
export const LIST_PAGE_SIZE = 50;
/** Callers may ask for smaller or larger pages, never more than this. */
export const LIST_PAGE_SIZE_MAX = 100;
/** The highest page number a caller may ask for. */
export const LIST_PAGE_MAX = 100_000;

export const paginationQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(LIST_PAGE_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(LIST_PAGE_SIZE_MAX).default(LIST_PAGE_SIZE),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

export const paginationSchema = z.object({
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  hasMore: z.boolean(),
});
export type Pagination = z.infer<typeof paginationSchema>;

/**
 * Beside `pagination` in a sorted list's answer (decision 257): the cursor for the page after this
 * one (`after=`, null on the last) and before it (`before=`, null on the first).
 */
const listCursorsSchema = z.object({ next: z.string().nullable(), previous: z.string().nullable() });
export type ListCursors = z.infer<typeof listCursorsSchema>;

/** A cursor-paged list's answer: its rows under their own name, the page and the cursors (decision 257). */
export const cursorListResponse = <Rows extends z.ZodRawShape>(rows: Rows) =>
  okResponse({ ...rows, pagination: paginationSchema, cursors: listCursorsSchema });

/** The pagination block of a list answer. */
export function paginationOf(query: PaginationQuery, total: number): Pagination {
  return { page: query.page, pageSize: query.pageSize, total, hasMore: query.page * query.pageSize < total };
}

/** Query string of a page request, for the browser. */
export function pageQuery(page: number, pageSize = LIST_PAGE_SIZE): string {
  return `?page=${page}&pageSize=${pageSize}`;
}
