import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Every route change scrolls smoothly to the top, or to the #anchor it names. */
export function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const behavior: ScrollBehavior = reduced ? 'auto' : 'smooth';
    if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView({ behavior, block: 'start' });
        return;
      }
    }
    window.scrollTo({ top: 0, left: 0, behavior });
  }, [pathname, hash]);
  return null;
}
