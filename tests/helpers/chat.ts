import type { ChatStreamEvent } from '../../common/schemas/chat-texts.ts';
import type { TestApp } from './test-app.ts';

export interface Asked {
  status: number;
  events: ChatStreamEvent[];
  text: string;
  conversationId?: string;
  outcome?: string;
  mode?: string;
  message?: string;
  headers: Record<string, unknown>;
}

/** Asks the support chat through the real route and reads the JSON-lines stream (or the error body). */
export async function ask(app: TestApp['app'], question: string, options: { ip?: string; conversationId?: string } = {}): Promise<Asked> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/chat',
    payload: { question, ...(options.conversationId ? { conversationId: options.conversationId } : {}) },
    remoteAddress: options.ip ?? '192.0.2.10',
  });
  if (res.statusCode !== 200) return { status: res.statusCode, events: [], text: '', message: res.json().message, headers: res.headers };
  const events = res.body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ChatStreamEvent);
  const start = events.find((e) => e.type === 'start');
  const done = events.find((e) => e.type === 'done');
  return {
    status: 200,
    events,
    text: events.map((e) => (e.type === 'delta' ? e.text : '')).join(''),
    conversationId: start?.type === 'start' ? start.conversationId : undefined,
    outcome: done?.type === 'done' ? done.outcome : events.some((e) => e.type === 'error') ? 'error' : undefined,
    mode: done?.type === 'done' ? done.mode : undefined,
    headers: res.headers,
  };
}
