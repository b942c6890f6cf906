// npm run bench: builds and starts the production server, loads it with autocannon, and prints each
// figure beside a bare Fastify route measured in the same run (so the ratios travel across machines).
import { randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { freePort } from '../tests/helpers/free-port.ts';
import { EMBEDDED_DB_NAME } from '../server/db/embedded-postgres.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const BUILD_DIR = process.env.BENCH_BUILD_DIR ?? 'build-bench';

export interface BenchRow {
  name: string;
  value: string;
  baseline?: string;
  ratio?: string;
}

async function load(url: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function startProductServer() {
  const port = await freePort();
  const pgPort = await freePort();
  // Bench modules that need accounts (bench/messages.ts) reach the embedded database directly, with its fixed local credentials.
  process.env.BENCH_DATABASE_URL = `postgres://postgres:postgres@127.0.0.1:${pgPort}/${EMBEDDED_DB_NAME}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-data-'));
  chmodSync(dataDir, 0o755);
  const child = spawn(process.execPath, [path.join(BUILD_DIR, 'app', 'main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      // Production requires its own key for the TOTP secrets; a throwaway one per run.
      MFA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'warn',
      BUILD_DIR,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bare Fastify server answering the same bytes: the ceiling our own work is compared to. */
async function startBaseline(pageHtml: string) {
  const app = Fastify({ logger: false });
  app.get('/json', async () => ({ success: true, status: 'ok' }));
  app.get('/page', async (_req, reply) => reply.type('text/html; charset=utf-8').send(pageHtml));
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return { base: `http://127.0.0.1:${port}`, close: () => app.close() };
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);

export function printTable(rows: BenchRow[]) {
  const header = ['measure', 'ours', 'bare Fastify', 'ratio'];
  const lines = [header, ...rows.map((r) => [r.name, r.value, r.baseline ?? '', r.ratio ?? ''])];
  const widths = header.map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  for (const [i, line] of lines.entries()) {
    console.log(line.map((cell, c) => cell.padEnd(widths[c])).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

async function main() {
  console.log(`Building the production bundle into ${BUILD_DIR} ...`);
  // The same build as `npm start`: pages, compressed static files, the compiled server (build/app).
  // BENCH_SKIP_BUILD=1 reuses the last bench build (repeating one module's figures without rebuilding).
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync('npm', ['run', 'build'], { env: { ...process.env, BUILD_DIR }, stdio: 'ignore' });
  const server = await startProductServer();
  const rows: BenchRow[] = [];
  try {
    const pagePath = '/about';
    const pageHtml = await (await fetch(`${server.base}${pagePath}`)).text();
    const baseline = await startBaseline(pageHtml);
    try {
      const ours = { health: await load(`${server.base}/api/health`), page: await load(`${server.base}${pagePath}`) };
      const bare = { json: await load(`${baseline.base}/json`), page: await load(`${baseline.base}/page`) };
      rows.push(
        { name: 'GET /api/health req/s', value: fmt(ours.health.rps), baseline: fmt(bare.json.rps), ratio: fmt(ours.health.rps / bare.json.rps, 2) },
        { name: 'GET /api/health p99 ms', value: fmt(ours.health.p99, 1), baseline: fmt(bare.json.p99, 1), ratio: fmt(ours.health.p99 / Math.max(bare.json.p99, 0.1), 2) },
        { name: `GET ${pagePath} (site page cache) req/s`, value: fmt(ours.page.rps), baseline: fmt(bare.page.rps), ratio: fmt(ours.page.rps / bare.page.rps, 2) },
        { name: `GET ${pagePath} (site page cache) p99 ms`, value: fmt(ours.page.p99, 1), baseline: fmt(bare.page.p99, 1), ratio: fmt(ours.page.p99 / Math.max(bare.page.p99, 0.1), 2) },
      );
    } finally {
      await baseline.close();
    }
    // Later work adds its rows through bench modules that take the running server's address.
    // articles.ts first: it writes the posts that the Lighthouse rows of /articles and an article page read.
    // pages.ts after articles.ts (it reads its posts); startup.ts starts servers of its own.
    // BENCH_ONLY=api.ts,messages.ts runs only those modules (the base rows always run).
    const only = process.env.BENCH_ONLY?.split(',').map((m) => `./${m.trim()}`);
    const extras = ['./articles.ts', './page-weight.ts', './pages.ts', './lighthouse.ts', './messages.ts', './api.ts', './newsletter.ts', './chat.ts', './search.ts', './permissions.ts', './finance.ts', './startup.ts', './libraries.ts'];
    for (const extra of extras) {
      if (!existsSync(new URL(extra, import.meta.url)) || (only && !only.includes(extra))) continue;
      type RowsOf = (base: string) => Promise<BenchRow[]>;
      const run = ((await import(extra)) as { default?: RowsOf }).default;
      if (!run) continue;
      // One module failing (a changed page, a missing tool) must not lose the rows of the others.
      try {
        const got = await run(server.base);
        rows.push(...got);
        printTable(got);
      } catch (error) {
        console.error(`bench ${extra} failed:`, error);
        rows.push({ name: `${extra} FAILED`, value: error instanceof Error ? error.message.slice(0, 80) : String(error) });
      }
    }
    rows.push({ name: 'server peak memory (MB, VmHWM)', value: String(peakRssMb(server.pid)) });
  } finally {
    await server.stop();
  }
  console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s per load, Node ${process.version}, ${os.cpus().length} cores\n`);
  printTable(rows);
}

await main();
