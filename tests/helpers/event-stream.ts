/** One server-sent event as read off the wire. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** Reads GET /api/messages/stream over real HTTP (inject() cannot hold a stream open), collecting its events. */
export async function openEventStream(base: string, cookie: string, extraHeaders: Record<string, string> = {}) {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...extraHeaders };
  if (cookie) headers.cookie = cookie;
  const response = await fetch(`${base}/api/messages/stream`, { headers, signal: controller.signal });
  const events: StreamEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    events,
    /** The first event (already received or still to come) that matches, or an error after the timeout. */
    async waitFor(predicate: (e: StreamEvent) => boolean, timeoutMs = 10_000): Promise<StreamEvent> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = events.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
    },
    async close() {
      controller.abort();
      await pump;
    },
  };
}
export type EventStream = Awaited<ReturnType<typeof openEventStream>>;
