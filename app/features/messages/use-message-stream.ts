import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageEventSchema, type MessageEvent } from '../../../common/schemas/messages.ts';
import { portalChangeSchema, type PortalChange } from '../../../common/schemas/portal-events.ts';
import { projectMessagesKey, queryKeysChangedBy, UNREAD_KEY } from '../../lib/portal-query-keys.ts';

// Whether the live stream is up; the thread polls while it is not.
let live = false;
const listeners = new Set<() => void>();
function setLive(next: boolean) {
  if (live === next) return;
  live = next;
  listeners.forEach((l) => l());
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** True while new messages arrive by the live stream (the thread then does not poll). */
export function useStreamLive(): boolean {
  return useSyncExternalStore(subscribe, () => live, () => false);
}

/** After the browser gives up on a stream (it was refused), how long until a new one is tried. */
const REOPEN_AFTER_MS = 30_000;

/**
 * Keeps the signed-in dashboard current: opens GET /api/messages/stream and reads a thread again
 * when one of its messages is sent or read, and a list again when a change (`change` events:
 * projects, timelines, reports, clients) touches it, and nothing else. `onEvent` is called for every
 * message event (null: anything may have changed, after a reconnect), e.g. to refresh unread counts.
 * If the stream drops, the threads poll until it is back.
 */
export function useMessageStream(onEvent?: (event: MessageEvent | null) => void) {
  const queryClient = useQueryClient();
  const onEventRef = useRef(onEvent);
  useEffect(() => {
    onEventRef.current = onEvent;
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let reopen: ReturnType<typeof setTimeout> | undefined;
    const everything = () => {
      // After a gap anything may have changed: every list the portal holds is read again.
      for (const key of [['messages'], ['projects'], ['timelines'], ['reports'], ['clients']]) void queryClient.invalidateQueries({ queryKey: key });
      onEventRef.current?.(null);
    };
    const open = () => {
      source = new EventSource('/api/messages/stream');
      // Whatever happened while the stream was not there is read again.
      source.addEventListener('ready', () => {
        setLive(true);
        everything();
      });
      source.addEventListener('resync', everything);
      source.addEventListener('message', (e) => {
        let parsed;
        try {
          parsed = messageEventSchema.safeParse(JSON.parse((e as globalThis.MessageEvent<string>).data));
        } catch {
          return;
        }
        if (!parsed.success) return;
        void queryClient.invalidateQueries({ queryKey: projectMessagesKey(parsed.data.projectId) });
        void queryClient.invalidateQueries({ queryKey: UNREAD_KEY });
        onEventRef.current?.(parsed.data);
      });
      source.addEventListener('change', (e) => {
        let parsed;
        try {
          parsed = portalChangeSchema.safeParse(JSON.parse((e as globalThis.MessageEvent<string>).data));
        } catch {
          return;
        }
        if (!parsed.success) return;
        const change: PortalChange = parsed.data;
        for (const queryKey of queryKeysChangedBy(change)) void queryClient.invalidateQueries({ queryKey });
      });
      source.onerror = () => {
        setLive(false);
        // The browser retries by itself unless the server refused; then we try again later.
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          reopen = setTimeout(open, REOPEN_AFTER_MS);
        }
      };
    };
    open();
    return () => {
      clearTimeout(reopen);
      source?.close();
      setLive(false);
    };
  }, [queryClient]);
}
