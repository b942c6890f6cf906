import { useCallback, useEffect, useRef } from 'react';
import { FORM_MIN_FILL_MS, FORM_TOKEN_FIELD, HONEYPOT_FIELD, type GuardedForm } from '../../common/form-guard.ts';

const FORM_TOKEN_UNAVAILABLE = 'Could not prepare the form. Please check your connection and try again.';

// A little more than the server's minimum, so clock jitter between the two never refuses a person.
const MARGIN_MS = 300;

/**
 * The bot guard of a public form: fetches the signed "form shown at" token (the pages are
 * pre-rendered, so it cannot be in the HTML), reads the honeypot, and waits out what is left of the
 * minimum fill time before handing the fields to the submission (only someone very fast ever waits).
 */
export function useFormGuard(form: GuardedForm, options: { eager?: boolean } = {}) {
  const eager = options.eager ?? true;
  const token = useRef<Promise<{ token: string; at: number }> | null>(null);
  const honeypotRef = useRef<HTMLInputElement>(null);

  const prepare = useCallback(() => {
    if (!token.current) {
      // Plain fetch, not apiFetch: the footer's newsletter box on every page uses this, and apiFetch brings zod.
      const pending = fetch('/api/form-token', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
        .then(async (r) => {
          if (!r.ok) throw new Error(`form-token ${r.status}`);
          return { token: ((await r.json()) as { token: string }).token, at: performance.now() };
        })
        .catch(() => {
          throw new Error(FORM_TOKEN_UNAVAILABLE);
        });
      // A failed fetch is tried again on the next call.
      pending.catch(() => {
        if (token.current === pending) token.current = null;
      });
      token.current = pending;
    }
    return token.current;
  }, []);

  useEffect(() => {
    if (eager) prepare().catch(() => undefined);
  }, [eager, prepare]);

  /** The guard fields to send first in the body, once the form has been open long enough. */
  const guardFields = useCallback(async (): Promise<Record<string, string>> => {
    const { token: value, at } = await prepare();
    const wait = FORM_MIN_FILL_MS[form] + MARGIN_MS - (performance.now() - at);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return { [FORM_TOKEN_FIELD]: value, [HONEYPOT_FIELD]: honeypotRef.current?.value ?? '' };
  }, [form, prepare]);

  /** Starts over with a new token (after a submission, or when the server said the form expired). */
  const reset = useCallback(() => {
    token.current = null;
    prepare().catch(() => undefined);
  }, [prepare]);

  return { guardFields, honeypotRef, prepare, reset };
}
