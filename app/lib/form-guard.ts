import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { GuardedForm } from '../../common/form-guard.ts';
import { formTokenGuard } from './form-token.ts';

/**
 * The bot guard of a public React form: the shared token guard (form-token.ts), whose token is
 * fetched as soon as the form shows, plus the honeypot's ref.
 */
export function useFormGuard(form: GuardedForm) {
  const guard = useMemo(() => formTokenGuard(form), [form]);
  const honeypotRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    guard.prepare().catch(() => undefined);
  }, [guard]);

  /** The guard fields to send first in the body, once the form has been open long enough. */
  const guardFields = useCallback(() => guard.fields(honeypotRef.current?.value ?? ''), [guard]);

  /** Starts over with a new token (after a submission, or when the server said the form expired). */
  const reset = useCallback(() => {
    guard.reset();
    guard.prepare().catch(() => undefined);
  }, [guard]);

  return { guardFields, honeypotRef, reset };
}
