import { useSearchParams } from 'react-router';

type ListParams<V> = {
  /** The filter from the address; an unknown value counts as none (or as the fallback). */
  value: V;
  /** The page from the address, 1 when missing or not a number. */
  page: number;
  /** Moves to another filter and/or page. A filter change should pass page 1. */
  go: (next: { value?: string; page?: number }) => void;
};

/**
 * A staff list's filter and page, kept in the address so reload, back and a shared link keep them.
 * The address stays short: the fallback filter and page 1 are left out.
 */
export function useListParams<T extends string>(key: string, values: readonly T[]): ListParams<T | undefined>;
export function useListParams<T extends string>(key: string, values: readonly T[], fallback: T): ListParams<T>;
export function useListParams<T extends string>(key: string, values: readonly T[], fallback?: T): ListParams<T | undefined> {
  const [params, setParams] = useSearchParams();
  const raw = params.get(key) ?? '';
  const value = (values as readonly string[]).includes(raw) ? (raw as T) : fallback;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const go = (next: { value?: string; page?: number }) => {
    const q = new URLSearchParams();
    const v = next.value ?? value;
    if (v && v !== fallback) q.set(key, v);
    if ((next.page ?? 1) > 1) q.set('page', String(next.page));
    setParams(q);
  };
  return { value, page, go };
}

/** How many pages a list of `total` items fills; at least one, so "Page 1 of 1" reads right when empty. */
export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));
