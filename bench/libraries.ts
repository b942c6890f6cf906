// Our own code against the libraries issue 27 names, for decision 238:
//   static files: the product's in-memory files against @fastify/static with preCompressed, each in
//     its own process (bench/static-server.ts), warmed up, interleaved rounds (A, B, A, B, ...), medians;
//   BoundedMap (on lru-cache since decision 238) against a bare LRUCache, Content-Disposition against the content-disposition package, and the
//     newsletter CSV as one string against a streamed writer: in this process, interleaved rounds, medians.
// Part of `npm run bench` (the client build of its run); alone, on any client build with its .br/.gz files:
//   BENCH_CLIENT_DIR=build/client node --import tsx bench/libraries.ts
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { create as contentDispositionPackage } from 'content-disposition';
import { LRUCache } from 'lru-cache';
import { BoundedMap } from '../server/lib/bounded-map.ts';
import { contentDisposition } from '../server/lib/content-disposition.ts';
import type { BenchRow } from './run.ts';

const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 4);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_API_CONNECTIONS ?? 10);
const CLIENT_DIR = process.env.BENCH_CLIENT_DIR ?? `${process.env.BENCH_BUILD_DIR ?? 'build-bench'}/client`;

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function startStaticServer(mode: 'ours' | 'fastify-static') {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./static-server.ts', import.meta.url).pathname, mode], {
    env: { ...process.env, BENCH_CLIENT_DIR: CLIENT_DIR },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve));
  return {
    base: `http://127.0.0.1:${line.trim()}`,
    rssMb: () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024),
    stop: () => new Promise((r) => child.once('exit', r).kill('SIGTERM')),
  };
}

async function load(url: string, seconds: number) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { 'accept-encoding': 'br, gzip' } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** The pre-rendered page and the largest script of the build, A/B over interleaved rounds. */
async function staticRows(): Promise<BenchRow[]> {
  const scripts = readdirSync(`${CLIENT_DIR}/assets`).filter((f) => f.endsWith('.js'));
  const biggest = scripts.map((f) => ({ f, n: statSync(`${CLIENT_DIR}/assets/${f}`).size })).sort((a, b) => b.n - a.n)[0].f;
  const paths = ['/about/', `/assets/${biggest}`];
  const servers = { ours: await startStaticServer('ours'), lib: await startStaticServer('fastify-static') };
  const rows: BenchRow[] = [];
  try {
    for (const p of paths) {
      for (const s of Object.values(servers)) await load(`${s.base}${p}`, WARMUP_S);
      const runs = { ours: [] as { rps: number; p99: number }[], lib: [] as { rps: number; p99: number }[] };
      for (let i = 0; i < ROUNDS; i++) {
        runs.ours.push(await load(`${servers.ours.base}${p}`, ROUND_S));
        runs.lib.push(await load(`${servers.lib.base}${p}`, ROUND_S));
      }
      const rps = { ours: median(runs.ours.map((r) => r.rps)), lib: median(runs.lib.map((r) => r.rps)) };
      const p99 = { ours: median(runs.ours.map((r) => r.p99)), lib: median(runs.lib.map((r) => r.p99)) };
      rows.push(
        { name: `static GET ${p} (br) req/s: ours | @fastify/static`, value: fmt(rps.ours), baseline: fmt(rps.lib), ratio: fmt(rps.ours / rps.lib, 2) },
        { name: `static GET ${p} (br) p99 ms: ours | @fastify/static`, value: fmt(p99.ours, 1), baseline: fmt(p99.lib, 1), ratio: fmt(p99.ours / Math.max(p99.lib, 0.1), 2) },
      );
    }
    rows.push({ name: 'static server RSS after load (MB): ours | @fastify/static', value: String(servers.ours.rssMb()), baseline: String(servers.lib.rssMb()) });
  } finally {
    await servers.ours.stop();
    await servers.lib.stop();
  }
  return rows;
}

/** Nanoseconds a call of each, over interleaved rounds (A, B, A, B, ...) after a warm-up round of each. */
function perCall(a: () => void, b: () => void, calls: number) {
  const time = (f: () => void) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) f();
    return Number(process.hrtime.bigint() - start) / calls;
  };
  time(a);
  time(b);
  const runs = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < 5; i++) {
    runs.a.push(time(a));
    runs.b.push(time(b));
  }
  return { a: median(runs.a), b: median(runs.b) };
}

const row = (name: string, t: { a: number; b: number }, digits = 0): BenchRow => ({
  name,
  value: fmt(t.a, digits),
  baseline: fmt(t.b, digits),
  ratio: fmt(t.a / t.b, 2),
});

function cacheRows(): BenchRow[] {
  // The route-match cache's shape (web.ts): short path keys, boolean values, a bound well under the keys seen.
  const keys = Array.from({ length: 20_000 }, (_, i) => `/projects/${i}?page=${i % 7}`);
  const bounded = new BoundedMap<boolean>({ maxEntries: 5_000, maxBytes: 4 * 1024 * 1024 });
  const lru = new LRUCache<string, boolean>({ max: 5_000, maxSize: 4 * 1024 * 1024, sizeCalculation: (_v, k) => k.length * 2 + 64 });
  let i = 0;
  const set = perCall(
    () => bounded.set(keys[i++ % keys.length], true),
    () => lru.set(keys[i++ % keys.length], true),
    1_000_000,
  );
  const get = perCall(
    () => bounded.get(keys[i++ % keys.length]),
    () => lru.peek(keys[i++ % keys.length]),
    1_000_000,
  );
  return [row('cache set with eviction (ns): BoundedMap | bare lru-cache', set), row('cache get, a quarter hits (ns): BoundedMap | bare lru-cache', get)];
}

function dispositionRows(): BenchRow[] {
  const names = ['cert.pdf', 'Résumé final.png', 'Site photo – Lekki 2026.jpg'];
  let i = 0;
  const t = perCall(
    () => contentDisposition('attachment', names[i++ % 3]),
    () => contentDispositionPackage(names[i++ % 3]),
    300_000,
  );
  return [
    row('Content-Disposition value (ns): ours | content-disposition', t),
    ...names.map((n) => ({ name: `  "${n}"`, value: contentDisposition('attachment', n), baseline: contentDispositionPackage(n) })),
  ];
}

/** The export's rows as the service holds them (toApi), n subscribers. */
function subscribers(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    email: `subscriber-${i}@example.test`,
    status: 'confirmed',
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    confirmedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000 + 5_000).toISOString(),
    unsubscribedAt: null as string | null,
  }));
}

function csvCell(value: string | null): string {
  const v = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return `"${safe.replace(/"/g, '""')}"`;
}
type Row = ReturnType<typeof subscribers>[number];
const csvLine = (r: Row) => [r.email, r.status, r.createdAt, r.confirmedAt, r.unsubscribedAt].map(csvCell).join(',');

/** The export as the service builds it (one string) against a streamed writer (a line at a time, 64 KB chunks), each written to a sink. */
async function csvRows(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const sink = () => new Writable({ write: (_c, _e, done) => done() });
  for (const n of [5_000, 50_000]) {
    const data = subscribers(n);
    const asString = async () => {
      const csv = `${['email,status,created_at,confirmed_at,unsubscribed_at', ...data.map(csvLine)].join('\r\n')}\r\n`;
      await pipeline(Readable.from([csv]), sink());
      return Buffer.byteLength(csv);
    };
    const streamed = async () => {
      await pipeline(
        Readable.from(
          (function* () {
            let chunk = 'email,status,created_at,confirmed_at,unsubscribed_at\r\n';
            for (const r of data) {
              chunk += `${csvLine(r)}\r\n`;
              if (chunk.length >= 65_536) {
                yield chunk;
                chunk = '';
              }
            }
            yield chunk;
          })(),
        ),
        sink(),
      );
    };
    const ms = async (f: () => Promise<unknown>) => {
      const start = performance.now();
      await f();
      return performance.now() - start;
    };
    await ms(asString);
    await ms(streamed);
    const runs = { a: [] as number[], b: [] as number[] };
    for (let i = 0; i < 5; i++) {
      runs.a.push(await ms(asString));
      runs.b.push(await ms(streamed));
    }
    const bytes = await asString();
    rows.push(row(`CSV of ${n} subscribers, ${fmt(bytes / 1024)} KB (ms): one string | streamed`, { a: median(runs.a), b: median(runs.b) }, 1));
  }
  return rows;
}

export default async function librariesBench(): Promise<BenchRow[]> {
  return [...(await staticRows()), ...cacheRows(), ...dispositionRows(), ...(await csvRows())];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await librariesBench()) console.log([r.name.padEnd(66), r.value, r.baseline ?? '', r.ratio ?? ''].join('  '));
}
