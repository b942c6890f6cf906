import { useState } from 'react';
import { Outlet } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { LoadingView } from '../../components/layout/loading-view.tsx';

// The specification's numbers: retry 3 times with exponential backoff capped at 30 s; forget after 5 minutes.
export const QUERY_RETRY_COUNT = 3;
export const QUERY_RETRY_MAX_DELAY_MS = 30_000;
export const QUERY_GC_TIME_MS = 5 * 60_000;

/** The portal's data client, with the specification's retry and cache numbers. */
export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: QUERY_RETRY_COUNT,
        retryDelay: (attempt) => Math.min(1000 * 2 ** attempt, QUERY_RETRY_MAX_DELAY_MS),
        gcTime: QUERY_GC_TIME_MS,
        refetchOnWindowFocus: false,
      },
    },
  });
}

// The signed-in areas render in the browser only; the server sends the loading view.
export async function clientLoader() {
  return null;
}

export function HydrateFallback() {
  return <LoadingView />;
}

export default function PortalLayout() {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Outlet />
    </QueryClientProvider>
  );
}
