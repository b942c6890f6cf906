// The bot guard of a public form in plain TypeScript (no React): the React forms (form-guard.ts),
// the footer's newsletter box and the chat's hand-off all use it, so the token is fetched one way.
import { FORM_MIN_FILL_MS, FORM_TOKEN_FIELD, HONEYPOT_FIELD, type GuardedForm } from '../../common/form-guard.ts';

const FORM_TOKEN_UNAVAILABLE = 'Could not prepare the form. Please check your connection and try again.';

// A little more than the server's minimum, so clock jitter between the two never refuses a person.
const MARGIN_MS = 300;

interface IssuedToken {
  token: string;
  /** When it arrived (performance.now()): the minimum fill time counts from here. */
  at: number;
}

/**
 * Fetches the signed "form shown at" token (the pages are pre-rendered, so it cannot be in the HTML)
 * once, and hands out the guard fields once the form has been open long enough (only someone very
 * fast ever waits). A failed fetch is tried again on the next call.
 */
export function formTokenGuard(form: GuardedForm) {
  let issued: Promise<IssuedToken> | null = null;

  const prepare = (): Promise<IssuedToken> => {
    if (!issued) {
      // Plain fetch, not apiFetch: the footer's newsletter box on every page uses this, and apiFetch brings zod.
      const pending = fetch('/api/form-token', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(async (r) => {
          if (!r.ok) throw new Error(`form-token ${r.status}`);
          return { token: ((await r.json()) as { token: string }).token, at: performance.now() };
        })
        .catch(() => {
          throw new Error(FORM_TOKEN_UNAVAILABLE);
        });
      pending.catch(() => {
        if (issued === pending) issued = null;
      });
      issued = pending;
    }
    return issued;
  };

  /** The guard fields to send in the body (token and honeypot), once the form has been open long enough. */
  const fields = async (honeypot: string): Promise<Record<string, string>> => {
    const { token, at } = await prepare();
    const wait = FORM_MIN_FILL_MS[form] + MARGIN_MS - (performance.now() - at);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return { [FORM_TOKEN_FIELD]: token, [HONEYPOT_FIELD]: honeypot };
  };

  /** Forgets the token (after a submission, or when the server said the form expired); the next call fetches anew. */
  const reset = () => {
    issued = null;
  };

  return { prepare, fields, reset };
}
