/**
 * Decision 170: the load-context key under which the server hands a page render its script nonce
 * (16 random bytes, base64, drawn per answer by server/plugins/web.ts and web-dev.ts). The
 * document's entry (app/entry.server.tsx) puts it on every script that React Router, React and
 * the root layout write; the page's Content-Security-Policy allows exactly that nonce.
 */
export const CSP_NONCE_CONTEXT_KEY = 'cspNonce';

/** The nonce of a render's load context; undefined when there is none (pages pre-rendered at build time). */
export function cspNonceOf(loadContext: unknown): string | undefined {
  const value = (loadContext as Record<string, unknown> | undefined)?.[CSP_NONCE_CONTEXT_KEY];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
