import http from 'node:http';
import type { Socket } from 'node:net';
import { freePort } from './free-port.ts';

/**
 * A local stand-in for the generative service's `streamGenerateContent?alt=sse` endpoint. The
 * application reaches it through GEMINI_API_URL like the real one, so none of our code is bypassed.
 * What it answers is chosen per request: by a script whose `match` occurs in the last user turn, else
 * the default behaviour.
 */
export type FakeGeminiBehaviour =
  /** Streams these text pieces as server-sent events, `delayMs` apart (also before the first). */
  | { kind: 'stream'; chunks: string[]; delayMs?: number; firstDelayMs?: number }
  /** A completed stream without any text. */
  | { kind: 'empty' }
  /** An error status with a JSON error body. */
  | { kind: 'status'; status: number }
  /** Waits this long before answering anything (a slow service). */
  | { kind: 'hang'; ms: number }
  /** Sends these bytes as the event stream (broken JSON and the like). */
  | { kind: 'raw'; body: string }
  /** Sends some text, then drops the connection. */
  | { kind: 'cut'; chunks: string[] };

interface FakeGeminiRequest {
  path: string;
  apiKey: string | undefined;
  body: {
    systemInstruction?: { parts: { text: string }[] };
    contents: { role: string; parts: { text: string }[] }[];
  };
}

export interface FakeGeminiServer {
  url: string;
  port: number;
  requests: FakeGeminiRequest[];
  /** The behaviour for requests no script matches. */
  setDefault(b: FakeGeminiBehaviour): void;
  /** Answers questions containing `match` this way (later scripts win). */
  script(match: string, b: FakeGeminiBehaviour): void;
  /** Uses `b` for the next `times` requests, whatever they ask (then scripts and default again). */
  next(b: FakeGeminiBehaviour, times?: number): void;
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const event = (text: string, finish = false) =>
  `data: ${JSON.stringify({
    candidates: [{ content: { role: 'model', parts: [{ text }] }, ...(finish ? { finishReason: 'STOP' } : {}) }],
  })}\r\n\r\n`;

export async function startFakeGeminiServer(options: { port?: number; defaultBehaviour?: FakeGeminiBehaviour } = {}): Promise<FakeGeminiServer> {
  const port = options.port ?? (await freePort());
  const initial: FakeGeminiBehaviour = options.defaultBehaviour ?? { kind: 'stream', chunks: ['Hello from the fake service.'] };
  let fallback = initial;
  let scripts: { match: string; behaviour: FakeGeminiBehaviour }[] = [];
  let queued: FakeGeminiBehaviour[] = [];
  const requests: FakeGeminiRequest[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        // Control endpoint for tests in other processes (the browser tests): POST /__script {match, behaviour}.
        if (req.url === '/__script' && req.method === 'POST') {
          const { match, behaviour } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { match: string; behaviour: FakeGeminiBehaviour };
          scripts.push({ match, behaviour });
          res.writeHead(204).end();
          return;
        }
        let body: FakeGeminiRequest['body'];
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeGeminiRequest['body'];
        } catch {
          res.writeHead(400).end();
          return;
        }
        requests.push({ path: req.url ?? '', apiKey: req.headers['x-goog-api-key'] as string | undefined, body });
        const last = body.contents.at(-1)?.parts.map((p) => p.text).join('') ?? '';
        const behaviour = queued.shift() ?? [...scripts].reverse().find((s) => last.includes(s.match))?.behaviour ?? fallback;
        await respond(behaviour, res);
      })().catch(() => res.destroy());
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  async function respond(b: FakeGeminiBehaviour, res: http.ServerResponse) {
    const sse = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' };
    switch (b.kind) {
      case 'stream': {
        res.writeHead(200, sse);
        res.flushHeaders();
        for (let i = 0; i < b.chunks.length; i++) {
          const wait = i === 0 ? (b.firstDelayMs ?? b.delayMs ?? 0) : (b.delayMs ?? 0);
          if (wait) await sleep(wait);
          if (res.destroyed) return;
          res.write(event(b.chunks[i], i === b.chunks.length - 1));
        }
        res.end();
        return;
      }
      case 'empty':
        res.writeHead(200, sse);
        res.end(`data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP' }] })}\r\n\r\n`);
        return;
      case 'status':
        res.writeHead(b.status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { code: b.status, message: 'fake failure', status: 'UNAVAILABLE' } }));
        return;
      case 'hang':
        await sleep(b.ms);
        if (!res.destroyed) res.writeHead(200, sse).end(event('Too late.', true));
        return;
      case 'raw':
        res.writeHead(200, sse);
        res.end(b.body);
        return;
      case 'cut':
        res.writeHead(200, sse);
        for (const c of b.chunks) res.write(event(c));
        await sleep(20);
        res.socket?.destroy();
        return;
    }
  }

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    setDefault: (b) => {
      fallback = b;
    },
    script: (match, behaviour) => {
      scripts.push({ match, behaviour });
    },
    next: (b, times = 1) => {
      for (let i = 0; i < times; i++) queued.push(b);
    },
    reset: () => {
      fallback = initial;
      scripts = [];
      queued = [];
      requests.length = 0;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
