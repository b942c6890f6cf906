import http from 'node:http';
import { freePort } from './free-port.ts';

/** How the fake answers the next requests. */
type FakeNewsMode =
  | { kind: 'ok'; articles: readonly unknown[] }
  | { kind: 'status'; status: number }
  | { kind: 'raw'; body: string }
  | { kind: 'huge'; bytes: number }
  | { kind: 'slow'; delayMs: number; articles: readonly unknown[] };

export interface FakeNewsServer {
  /** The everything-search endpoint, for NEWS_API_URL. */
  url: string;
  /** Every request received: its query parameters and the key header. */
  requests: { query: Record<string, string>; apiKey: string | undefined }[];
  setMode(mode: FakeNewsMode): void;
  close(): Promise<void>;
}

/** One article in the news service's shape. */
export function sampleNewsArticle(n: number, overrides: Record<string, unknown> = {}) {
  return {
    source: { id: null, name: n % 2 ? 'Site Weekly' : 'Build Journal' },
    author: 'A Reporter',
    title: `Industry story number ${n}`,
    description: `<p>Summary of story ${n} &amp; more</p>`,
    url: `https://news.example.test/stories/${n}?ref=feed`,
    urlToImage: `https://images.example.test/${n}.jpg`,
    publishedAt: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - n * 3600_000).toISOString(),
    content: `<p>Full text of story ${n}.</p>`,
    ...overrides,
  };
}

/**
 * A local stand-in for the news service's everything-search endpoint (tests start it; the server
 * reaches it through NEWS_API_URL). It records each request and answers as `setMode` says.
 */
export async function startFakeNewsServer(options: { port?: number } = {}): Promise<FakeNewsServer> {
  let mode: FakeNewsMode = { kind: 'ok', articles: [] };
  const requests: FakeNewsServer['requests'] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ query: Object.fromEntries(url.searchParams), apiKey: req.headers['x-api-key'] as string | undefined });
    const json = (articles: readonly unknown[]) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', totalResults: articles.length, articles }));
    };
    const m = mode;
    if (m.kind === 'ok') return json(m.articles);
    if (m.kind === 'status') {
      res.writeHead(m.status, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify({ status: 'error', code: 'unexpectedError', message: 'Something went wrong' }));
    }
    if (m.kind === 'raw') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(m.body);
    }
    if (m.kind === 'huge') {
      // Streamed without a Content-Length, so only counting the bytes can stop it.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      res.write('{"status":"ok","articles":[],"padding":"');
      const pump = () => {
        while (sent < m.bytes) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('"}');
      };
      res.on('error', () => undefined);
      return pump();
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed) json(m.articles);
    }, m.delayMs);
    timers.add(timer);
  });
  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/v2/everything`,
    requests,
    setMode(next) {
      mode = next;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
