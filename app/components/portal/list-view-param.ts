import { useSearchParams } from 'react-router';
import { LIST_SORTS } from '../../../common/schemas/archive.ts';
import type { ListView } from './tidy-actions.tsx';

// A list's filter and order live in the address (?projects=archived&projectsOrder=name), so a
// reload, back and forward, and a shared link keep the view. A value the list does not know is
// read as the default, without a word: an old or edited link still opens the page.

const orderKey = (key: string) => `${key}Order`;

/** The view of one list kept under `key` in the address; `statuses` are the kind's own. */
export function useListViewParam<S extends string>(key: string, statuses: readonly S[]): [ListView<S>, (view: ListView<S>) => void] {
  const [params, setParams] = useSearchParams();
  const status = params.get(key) ?? '';
  const sort = params.get(orderKey(key)) ?? '';
  const view: ListView<S> = {
    status: ([...statuses, 'archived', 'all'] as string[]).includes(status) ? (status as ListView<S>['status']) : '',
    sort: (LIST_SORTS as readonly string[]).includes(sort) ? (sort as ListView<S>['sort']) : '',
  };
  function setView(next: ListView<S>) {
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [name, value] of [[key, next.status], [orderKey(key), next.sort]] as const) {
        if (value) out.set(name, value);
        else out.delete(name);
      }
      return out;
    });
  }
  return [view, setView];
}

/** `next` as the address's selection, keeping the lists' views named in `keys`. */
export function keepingViews(current: URLSearchParams, keys: readonly string[], next: Record<string, string>): URLSearchParams {
  const out = new URLSearchParams(next);
  for (const key of keys.flatMap((k) => [k, orderKey(k)])) {
    const value = current.get(key);
    if (value) out.set(key, value);
  }
  return out;
}
