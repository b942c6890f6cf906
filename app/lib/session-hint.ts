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
