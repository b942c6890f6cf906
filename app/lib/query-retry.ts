import { ApiRequestError } from './api.ts';
// The specification's retry count has its home beside the query client it configures.
import { QUERY_RETRY_COUNT } from '../routes/portal/portal-layout.tsx';

/**
 * Retries a failed load like the rest of the portal, except when the server answered 4xx: a missing
 * or forbidden resource does not appear by asking again, and the user should see why at once.
 */
export function retryUnlessClientError(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) return false;
  return failureCount < QUERY_RETRY_COUNT;
}
