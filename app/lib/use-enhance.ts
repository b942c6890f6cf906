import { useEffect, useRef } from 'react';

/**
 * On pages React hydrates, runs the same enhancement module the content pages load on their own
 * (decision 140), so each behaviour has one implementation. Re-runs when `key` changes.
 */
export function useEnhance<T extends HTMLElement>(enhance: (el: T) => () => void, key?: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.dataset.enhanced = 'true';
    return enhance(el);
  }, [enhance, key]);
  return ref;
}
