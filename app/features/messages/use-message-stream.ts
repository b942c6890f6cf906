import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageEventSchema, type MessageEvent } from '../../../common/schemas/messages.ts';

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
 * when one of its messages is sent or read. `onEvent` is called for every change (null: anything
 * may have changed, after a reconnect), e.g. to refresh unread counts. If the stream drops, the
 * threads poll until it is back.
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
      void queryClient.invalidateQueries({ queryKey: ['messages'] });
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
        void queryClient.invalidateQueries({ queryKey: ['messages', 'project', parsed.data.projectId] });
        void queryClient.invalidateQueries({ queryKey: ['messages', 'unread'] });
        onEventRef.current?.(parsed.data);
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
