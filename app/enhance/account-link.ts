// The header's 'Client Login' link becomes 'My Dashboard' when the readable signed-in hint cookie
// says a session exists (the pages are static: the server cannot know). Without JavaScript it stays
// 'Client Login', and the login page sends a signed-in visitor on to the dashboard.

import { hasSignedInHint } from '../../common/session-hint.ts';
import { PATHS } from '../../common/paths.ts';

export function enhanceAccountLink(link: HTMLElement): () => void {
  const signedIn = hasSignedInHint();
  link.setAttribute('href', signedIn ? PATHS.clientDashboard : PATHS.clientLogin);
  link.textContent = signedIn ? 'My Dashboard' : 'Client Login';
  return () => undefined;
}
