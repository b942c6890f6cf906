/**
 * Public pages are static files, so they cannot know on the server who is signed in. Sign-in sets a
 * readable cookie that says only that a session exists (no secret: the session itself is httpOnly),
 * and the header reads it to show 'My Dashboard' instead of 'Client Login'.
 */
export const SIGNED_IN_HINT_COOKIE = 'signed_in';

export function hasSignedInHint(): boolean {
  if (typeof document === 'undefined') return false;
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SIGNED_IN_HINT_COOKIE}=`));
}

/** Forgets the hint in this browser (logout; a session found expired). The server clears it too. */
export function clearSignedInHint(): void {
  if (typeof document === 'undefined') return;
  document.cookie = `${SIGNED_IN_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}
