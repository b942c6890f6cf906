import { useMatches } from 'react-router';

/**
 * Decision 140: a route that exports `handle = NO_HYDRATION` is served as HTML only. The root
 * layout leaves out <Scripts /> (and with it React, React Router, the route modules and their
 * modulepreload links) and loads the small enhancement entry (app/enhance/entry.ts) instead.
 */
export const NO_HYDRATION = { hydrate: false } as const;

export function useHydratedRoute(): boolean {
  const matches = useMatches();
  return !matches.some((m) => (m.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
}
