import { useEffect } from 'react';
import { toast } from '../ui/toast.tsx';

/**
 * A failure toast: the specification's default text as the title and the server's message, when it
 * gave one, as the description.
 */
export function toastFailure(title: string, error: unknown) {
  const message = error instanceof Error ? error.message : undefined;
  toast({ title, description: message && message !== title ? message : undefined, variant: 'destructive' });
}

/** Shows a failure toast once each time a load fails. */
export function useFailureToast(error: unknown, title: string) {
  useEffect(() => {
    if (error) toastFailure(title, error);
  }, [error, title]);
}
