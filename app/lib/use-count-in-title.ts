import { useEffect } from 'react';

/**
 * Puts a count in front of the page's title, '(3) Client Dashboard', as mail and chat apps do, so a
 * background tab shows that something waits; the plain title comes back when the count is 0.
 */
export function useCountInTitle(title: string, count: number) {
  useEffect(() => {
    document.title = count > 0 ? `(${count}) ${title}` : title;
  }, [title, count]);
  useEffect(() => () => void (document.title = title), [title]);
}
