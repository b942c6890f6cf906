// Support-chat figures for npm run bench (issue 11):
// - time to the first streamed word and to the whole answer through POST /api/chat with a local fake
//   of the generative service (chunks 40 ms apart), beside a bare Fastify route that only relays the
//   same fake's stream (interleaved rounds, medians);
// - offline answers per second (retrieval over the facts) beside a bare Fastify route answering the
//   same bytes, both through inject() with a different address per question (the per-address limits
//   would otherwise measure the limit);
// - the JavaScript a public page loads before the panel opens (compressed), against the build given
//   in BENCH_BASE_BUILD_DIR (a build of main) when set.
// Builds the application in this process on the bench's database (BENCH_DATABASE_URL). Run alone with:
//   node --import tsx bench/chat.ts
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import Fastify from 'fastify';
import pino from 'pino';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { createDatabase } from '../server/db/client.ts';
import { startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { runMigrations } from '../server/db/migrate.ts';
import { startFakeGeminiServer } from '../tests/helpers/fake-gemini-server.ts';
import { freePort } from '../tests/helpers/free-port.ts';
import type { BenchRow } from './run.ts';

const ROUNDS = Number(process.env.BENCH_CHAT_ROUNDS ?? 15);
const OFFLINE_SECONDS = Number(process.env.BENCH_CHAT_OFFLINE_S ?? 5);
const CHUNKS = ['Kora Delta offers ', 'six services: ', 'oil and gas, ', 'design and planning, ', 'fabrication, ', 'civil works, ', 'marine logistics ', 'and mechanical engineering.'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n: number, digits = 0) => n.toFixed(digits);

/** Milliseconds to the first line carrying text, and to the end of the stream. */
async function timeStream(url: string, body: unknown, isText: (line: string) => boolean) {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  let first = -1;
  let buffer = '';
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    if (first < 0 && lines.some(isText)) first = performance.now() - t0;
  }
  return { first, total: performance.now() - t0 };
}

/**
 * The initial JavaScript of the home page of a build: every script and module preload, compressed.
 * The page is the one the running server sends (rendered at runtime since decision 289), or the
 * build's pre-rendered index.html (builds before it).
 */
export function initialJs(buildDir: string, html = readFileSync(path.join(buildDir, 'client', 'index.html'), 'utf8')) {
  const files = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const f of files) {
    const bytes = readFileSync(path.join(buildDir, 'client', f));
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
    br += brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length;
  }
  return { files: files.size, raw, gz, br };
}

export default async function runChatBench(serverBase?: string): Promise<BenchRow[]> {
  const databaseUrl = process.env.BENCH_DATABASE_URL;
  if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is not set (run through npm run bench, or run this file alone)');
  const rows: BenchRow[] = [];
  const gemini = await startFakeGeminiServer({ defaultBehaviour: { kind: 'stream', chunks: CHUNKS, delayMs: 40 } });
  const database = createDatabase(databaseUrl, { max: 10 });
  const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, SERVE_WEB: 'false' };
  const aiApp = await buildApp({ config: loadConfig({ ...base, GEMINI_API_KEY: 'bench-key', GEMINI_API_URL: gemini.url }), database, logger: false });
  const offlineApp = await buildApp({ config: loadConfig(base), database, logger: false });
  // The bare route: relays the fake service's stream as it comes, nothing else.
  const bare = Fastify({ logger: false });
  bare.post('/relay', async (_request, reply) => {
    const upstream = await fetch(`${gemini.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'What services do you offer?' }] }] }),
    });
    reply.header('Content-Type', 'text/event-stream');
    return reply.send(upstream.body);
  });
  const offlineBody = `${JSON.stringify({ type: 'start', conversationId: '00000000-0000-4000-8000-000000000000' })}\n${JSON.stringify({ type: 'delta', text: 'x'.repeat(600) })}\n${JSON.stringify({ type: 'done', outcome: 'answered', mode: 'offline' })}\n`;
  bare.post('/answer', async (_request, reply) => reply.header('Content-Type', 'application/x-ndjson').send(offlineBody));
  try {
    const aiUrl = await aiApp.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });
    const ours = { first: [] as number[], total: [] as number[] };
    const relay = { first: [] as number[], total: [] as number[] };
    for (let i = 0; i < ROUNDS + 2; i++) {
      // Each round from a fresh conversation; the per-address minute limit is reset between rounds.
      await database.pool.query(`delete from rate_limit_counters where key like 'chat:%'`);
      const a = await timeStream(`${aiUrl}/api/chat`, { question: 'What services do you offer?' }, (l) => l.includes('"type":"delta"'));
      const b = await timeStream(`${bareUrl}/relay`, {}, (l) => l.startsWith('data:'));
      if (i < 2) continue; // warm-up
      ours.first.push(a.first);
      ours.total.push(a.total);
      relay.first.push(b.first);
      relay.total.push(b.total);
    }
    rows.push(
      {
        name: `chat: first streamed word, fake AI (ms, median of ${ROUNDS})`,
        value: fmt(median(ours.first)),
        baseline: fmt(median(relay.first)),
        ratio: `${fmt(median(ours.first) / median(relay.first), 2)}x`,
      },
      {
        name: `chat: whole answer, ${CHUNKS.length} chunks 40 ms apart (ms, median)`,
        value: fmt(median(ours.total)),
        baseline: fmt(median(relay.total)),
        ratio: `${fmt(median(ours.total) / median(relay.total), 2)}x`,
      },
    );

    // Offline answers per second, 10 in flight, a different address each.
    await offlineApp.ready();
    const questions = ['What services do you offer?', 'What is your phone number?', 'How do I register as a vendor?', 'Which certifications do you hold?'];
    let n = 0;
    const throughput = async (call: (i: number) => Promise<{ statusCode: number }>) => {
      let done = 0;
      const until = performance.now() + OFFLINE_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (performance.now() < until) {
            const res = await call(n++);
            if (res.statusCode !== 200) throw new Error(`offline answer: ${res.statusCode}`);
            done++;
          }
        }),
      );
      return done / OFFLINE_SECONDS;
    };
    const ip = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const askOffline = (i: number) =>
      offlineApp.inject({ method: 'POST', url: '/api/chat', payload: { question: questions[i % questions.length] }, remoteAddress: ip(i) });
    const askBare = () => bare.inject({ method: 'POST', url: '/answer', payload: {} });
    await throughput(askOffline); // warm-up
    const offline: number[] = [];
    const bareRates: number[] = [];
    for (let round = 0; round < 3; round++) {
      offline.push(await throughput(askOffline));
      bareRates.push(await throughput(askBare));
    }
    rows.push({
      name: 'chat: offline answers per second (inject, 10 in flight)',
      value: fmt(median(offline)),
      baseline: fmt(median(bareRates)),
      ratio: `${fmt(median(offline) / median(bareRates), 3)}x`,
    });
  } finally {
    await aiApp.close();
    await offlineApp.close();
    await bare.close();
    await database.close();
    await gemini.close();
  }

  const buildDir = process.env.BENCH_BUILD_DIR ?? 'build-bench';
  const homeHtml = serverBase ? await (await fetch(`${serverBase}/`)).text() : undefined;
  if (homeHtml || existsSync(path.join(buildDir, 'client', 'index.html'))) {
    const ours = initialJs(buildDir, homeHtml);
    const baseDir = process.env.BENCH_BASE_BUILD_DIR;
    const other = baseDir && existsSync(path.join(baseDir, 'client', 'index.html')) ? initialJs(baseDir) : null;
    rows.push(
      {
        name: `home page JavaScript before the chat opens, brotli (bytes, ${ours.files} files)`,
        value: String(ours.br),
        ...(other ? { baseline: `${other.br} (base build)`, ratio: `+${ours.br - other.br} B` } : {}),
      },
      {
        name: 'home page JavaScript before the chat opens, gzip (bytes)',
        value: String(ours.gz),
        ...(other ? { baseline: `${other.gz} (base build)`, ratio: `+${ours.gz - other.gz} B` } : {}),
      },
    );
  }
  return rows;
}

// Alone: an embedded PostgreSQL in a temporary folder, migrated, then the figures.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-chat-pg-'));
  // Running as root, PostgreSQL runs as another user that must reach the folder (as bench/run.ts does).
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await freePort(), log: pino({ level: 'warn' }) });
  try {
    await runMigrations(pg.url);
    process.env.BENCH_DATABASE_URL = pg.url;
    for (const r of await runChatBench()) console.log(`${r.name.padEnd(72)}  ${r.value}${r.baseline ? `  (bare: ${r.baseline}, ${r.ratio})` : ''}`);
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
