import { useEffect } from 'react';

/**
 * Puts a count in front of the page's title, '(3) Client Dashboard', as mail and chat apps do, so a
 * background tab shows that something waits; the plain title comes back when the count is 0.
 *
 * Only a title this hook wrote is ever changed back: when the screen goes away (a navigation, or a
 * crash that shows the error screen with its own title) any other title is left as it is.
 */
export function useCountInTitle(title: string, count: number) {
  useEffect(() => {
    const shown = count > 0 ? `(${count}) ${title}` : title;
    document.title = shown;
    return () => {
      if (document.title === shown) document.title = title;
    };
  }, [title, count]);
}
