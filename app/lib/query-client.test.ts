import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeQueryClient } from '../routes/portal/portal-layout.tsx';
import { ApiRequestError } from './api.ts';
import { retryUnlessClientError } from './query-retry.ts';

// The specification's data fetching (sections 8 and 9): a failed load is retried 3 times with
// exponential backoff capped at 30 s, and unused answers are forgotten after 5 minutes.
describe('the portal data client', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Runs a query that always fails with `error`; returns when each attempt started (fake ms). */
  async function attemptsOf(error: Error, retry?: typeof retryUnlessClientError) {
    const client = makeQueryClient();
    const started: number[] = [];
    const t0 = Date.now();
    const result = client
      .fetchQuery({
        queryKey: ['failing'],
        queryFn: () => {
          started.push(Date.now() - t0);
          return Promise.reject(error);
        },
        ...(retry ? { retry } : {}),
      })
      .catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await result).toBe(error);
    client.clear();
    return started;
  }

  it('retries a failed load 3 times, waiting 1, 2 and 4 s', async () => {
    expect(await attemptsOf(new Error('down'))).toEqual([0, 1000, 3000, 7000]);
  });

  it('retries server failures like that, but not a 4xx answer (decision 050)', async () => {
    expect(await attemptsOf(new ApiRequestError('busy', 503), retryUnlessClientError)).toEqual([0, 1000, 3000, 7000]);
    expect(await attemptsOf(new ApiRequestError('Project not found', 404), retryUnlessClientError)).toEqual([0]);
  });

  it('caps the backoff at 30 s', () => {
    const delay = makeQueryClient().getDefaultOptions().queries!.retryDelay as (failureCount: number, error: unknown) => number;
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => delay(n, null))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('forgets an answer nobody uses after 5 minutes', async () => {
    const client = makeQueryClient();
    await client.prefetchQuery({ queryKey: ['kept'], queryFn: () => Promise.resolve('data') });
    expect(client.getQueryData(['kept'])).toBe('data');
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1000);
    expect(client.getQueryData(['kept'])).toBe('data');
    await vi.advanceTimersByTimeAsync(2000);
    expect(client.getQueryData(['kept'])).toBeUndefined();
  });
});
