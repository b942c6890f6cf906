import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

/**
 * False in the server's (or pre-rendered) HTML and during hydration, true once React runs in the
 * browser. The public forms keep their submit button disabled until then: a form sent before its
 * script runs would go out as a plain GET, with everything typed in the address bar.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
