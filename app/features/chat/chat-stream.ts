// Asking the assistant: POST /api/chat answers either with a refusal (a 4xx with words for the
// visitor) or with a stream of JSON lines (start, delta..., done or error).
import type { ChatStreamEvent } from '../../../common/schemas/chat-texts.ts';

export type ChatAnswer =
  /** The server refused the question; `message` is what to tell the visitor (absent on a 5xx). */
  | { kind: 'refused'; message?: string }
  | { kind: 'stream'; events: AsyncGenerator<ChatStreamEvent> };

async function* lines(body: NonNullable<Response['body']>): AsyncGenerator<ChatStreamEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) yield JSON.parse(line) as ChatStreamEvent;
    }
  }
}

/** Sends a question; a network failure (or a broken stream, while reading) throws. */
export async function askAssistant(question: string, conversationId: string | undefined): Promise<ChatAnswer> {
  const res = await fetch('/api/chat', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
    credentials: 'same-origin',
    body: JSON.stringify({ question, ...(conversationId ? { conversationId } : {}) }),
  });
  if (res.ok && res.body) return { kind: 'stream', events: lines(res.body) };
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  return { kind: 'refused', message: res.status >= 400 && res.status < 500 && body?.message ? body.message : undefined };
}
