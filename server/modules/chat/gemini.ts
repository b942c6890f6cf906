// The generative service's streaming REST call (Gemini `streamGenerateContent` with server-sent
// events), with plain fetch: no SDK, no key in any browser (decision 102).

export interface GeminiTurn {
  role: 'user' | 'model';
  text: string;
}

export interface GeminiRequest {
  apiUrl: string;
  apiKey: string;
  model: string;
  systemInstruction: string;
  contents: GeminiTurn[];
  /** Until the first text arrives (connection, headers and first chunk). */
  firstChunkTimeoutMs: number;
  /** For the whole answer. */
  totalTimeoutMs: number;
  /** Attempts before the first text when the failure is transient (network, 429, 5xx, time-out). */
  attempts: number;
  signal?: AbortSignal;
}

export class GeminiError extends Error {
  constructor(
    message: string,
    /** True when the failure happened before any text was produced (safe to answer another way). */
    readonly beforeText: boolean,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);

/** Yields the answer's text pieces as the service produces them. */
export async function* streamGemini(req: GeminiRequest): AsyncGenerator<string> {
  for (let attempt = 1; ; attempt++) {
    let producedText = false;
    try {
      for await (const piece of oneAttempt(req)) {
        producedText = true;
        yield piece;
      }
      return;
    } catch (err) {
      const e = err instanceof GeminiError ? err : new GeminiError(String((err as Error)?.message ?? err), !producedText, true);
      const failure = producedText ? new GeminiError(e.message, false, e.transient) : e;
      if (failure.beforeText && failure.transient && attempt < req.attempts && !req.signal?.aborted) continue;
      throw failure;
    }
  }
}

async function* oneAttempt(req: GeminiRequest): AsyncGenerator<string> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  req.signal?.addEventListener('abort', abort, { once: true });
  let phase: 'first' | 'rest' = 'first';
  const firstTimer = setTimeout(() => controller.abort(new GeminiError('no answer in time', true, true)), req.firstChunkTimeoutMs);
  const totalTimer = setTimeout(() => controller.abort(new GeminiError('answer took too long', false, false)), req.totalTimeoutMs);
  try {
    const url = `${req.apiUrl.replace(/\/+$/, '')}/v1beta/models/${encodeURIComponent(req.model)}:streamGenerateContent?alt=sse`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'x-goog-api-key': req.apiKey },
        body: JSON.stringify({
          systemInstruction: { parts: [{ text: req.systemInstruction }] },
          contents: req.contents.map((c) => ({ role: c.role, parts: [{ text: c.text }] })),
          generationConfig: { temperature: 0.3, maxOutputTokens: 600 },
        }),
        signal: controller.signal,
      });
    } catch (err) {
      throw reason(controller, err, true);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new GeminiError(`the service answered ${res.status}`, true, TRANSIENT_STATUS.has(res.status));
    }
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = res.body.getReader();
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw reason(controller, err, phase === 'first');
        }
        if (chunk.done) break;
        buffer += decoder.decode(chunk.value, { stream: true });
        // Server-sent events: blocks separated by a blank line, each with `data:` lines.
        let end: number;
        while ((end = nextBlockEnd(buffer)) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^(\r?\n)+/, '');
          const text = textOfEvent(block, phase === 'first');
          if (text) {
            if (phase === 'first') {
              phase = 'rest';
              clearTimeout(firstTimer);
            }
            yield text;
          }
        }
      }
      if (buffer.trim()) {
        const text = textOfEvent(buffer, phase === 'first');
        if (text) yield text;
      }
    } finally {
      reader.releaseLock();
    }
  } finally {
    clearTimeout(firstTimer);
    clearTimeout(totalTimer);
    req.signal?.removeEventListener('abort', abort);
    if (!controller.signal.aborted) controller.abort();
  }
}

function nextBlockEnd(buffer: string): number {
  const m = /\r?\n\r?\n/.exec(buffer);
  return m ? m.index + m[0].length : -1;
}

function reason(controller: AbortController, err: unknown, beforeText: boolean): GeminiError {
  const r: unknown = controller.signal.reason;
  if (r instanceof GeminiError) return r.beforeText === beforeText ? r : new GeminiError(r.message, beforeText, r.transient && beforeText);
  return new GeminiError(`network: ${(err as Error)?.message ?? String(err)}`, beforeText, true);
}

interface GeminiChunk {
  candidates?: { content?: { parts?: { text?: string }[] } }[];
  error?: { message?: string };
}

/** The text of one event; a block that is not the service's JSON is a malformed stream. */
function textOfEvent(block: string, beforeText: boolean): string {
  const data = block
    .split(/\r?\n/)
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trimStart())
    .join('\n');
  if (!data) return '';
  let json: GeminiChunk;
  try {
    json = JSON.parse(data) as GeminiChunk;
  } catch {
    throw new GeminiError('malformed stream from the service', beforeText, false);
  }
  if (json.error) throw new GeminiError(`the service reported: ${json.error.message ?? 'an error'}`, beforeText, false);
  if (typeof json !== 'object' || json === null || !Array.isArray(json.candidates)) {
    throw new GeminiError('malformed stream from the service', beforeText, false);
  }
  return (json.candidates[0]?.content?.parts ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}
