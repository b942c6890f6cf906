import { useEffect, useState } from 'react';
import { tokenFromHash } from '../../features/auth/auth-api.ts';

/**
 * The token of an e-mailed link (`#token=...`), read once in the browser and then removed from the
 * address bar, so it is neither left in the history nor shown over a shoulder.
 * undefined while reading, null when the link has no token.
 */
export function useLinkToken(): string | null | undefined {
  const [token, setToken] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    const found = tokenFromHash(window.location.hash);
    setToken(found);
    if (found) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  return token;
}
