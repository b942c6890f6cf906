import { createContext, useContext } from 'react';

/**
 * Decision 170: the script nonce of the answer being rendered, given by app/entry.server.tsx.
 * Undefined in the browser (browsers hide a nonce once the page is parsed, and a script that
 * React adds after hydration is not inline markup) and in pages pre-rendered at build time, whose
 * own inline scripts are allowed by their hashes instead (server/plugins/static-files.ts).
 */
export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
