// Bot protection shared by every public form: a honeypot field people never see and a signed
// token recording when the form was shown (the server refuses what comes back too fast).
// No zod here: the footer's newsletter box on every page imports this.

/** The honeypot: hidden from people and assistive technology, filled in only by bots. */
export const HONEYPOT_FIELD = 'homepageUrl';
/** The signed issue time of the form (GET /api/form-token). */
export const FORM_TOKEN_FIELD = 'formToken';

/** Nobody reads and fills in a form this fast; the browser waits out the rest before sending. */
export const FORM_MIN_FILL_MS = {
  vendor: 5_000,
  contact: 3_000,
  newsletter: 2_000,
} as const;
export type GuardedForm = keyof typeof FORM_MIN_FILL_MS;

/** A form left open longer than this must be reloaded (a stale token proves nothing). */
export const FORM_TOKEN_MAX_AGE_MS = 24 * 60 * 60_000;

/** What the guard tells people (the forms compare the expired message to start over with a new token). */
export const FORM_MESSAGES = {
  rateLimited: (wait: string) =>
    `Too many submissions from your network. Please try again in ${wait}, or write to us by e-mail.`,
  expired: 'This form has expired. Please reload the page and try again.',
  tooFast: 'That was very quick. Please check the form, then send it again.',
} as const;
